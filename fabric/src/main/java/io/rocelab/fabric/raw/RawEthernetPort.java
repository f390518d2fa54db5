package io.rocelab.fabric.raw;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.queue.MessageQueues;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.Scheduler;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import org.jctools.queues.MessagePassingQueue;

/**
 * A {@link io.rocelab.fabric.port.FramePort} that owns a Linux interface (a veth end, a real NIC):
 * the frames the switch or NIC sends go out on the interface whole, and the frames that come in on
 * it (not the ones sent here: direction IN) are received.
 *
 * <p>Threading: where the owner is an epoll event loop ({@link io.rocelab.fabric.time.RealTimeScheduler}'s
 * default) and the socket has a descriptor to wait on, the loop itself waits on the socket and its
 * thread delivers each frame as it takes it ({@link LoopReceiver}): no thread of the port's own.
 * Otherwise a receive thread of the port's own waits on the {@link RawSocket} and hands what
 * arrived, in batches, to the owner (the scheduler of the switch or NIC using the port), which
 * delivers the frames to the receiver in order, as soon as they are there (libpcap's immediate
 * mode: no buffer timeout). Between the two threads frames wait in a bounded queue; beyond it they
 * are dropped and counted ({@link RawPortCounter#RX_DROPPED_BACKLOG}), as are the frames the kernel
 * dropped at the socket ({@link RawPortCounter#RX_DROPPED_SOCKET}). Sends are written on the
 * calling thread; on the owner thread, a backend that batches (AF_PACKET) gathers the frames its
 * tasks send and writes them in one system call in a task of the owner's that runs after those
 * already due (so a received batch goes out as a batch, without waiting for a timer).
 *
 * <p>Frames shorter than Ethernet's minimum (60 bytes without FCS) are received padded with zeros
 * to it, as they would cross a wire: the kernel hands a frame over as its stack built it (an ARP
 * request is 42 bytes), and the padding is a NIC's job, which a veth never does.
 *
 * <p>The link is up from open to {@link #close()}. The interface needs the offloads a user-space
 * forwarder cannot carry turned off ({@code ethtool -K IFACE tx off tso off gso off gro off}):
 * otherwise the kernel hands over TCP segments larger than the MTU, and UDP/TCP frames whose
 * checksum is left for a NIC to fill in.
 */
public final class RawEthernetPort extends AbstractFramePort implements AutoCloseable {
    /** Default largest frame without FCS: 9216 bytes, a common jumbo-frame limit. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 9216;
    /** Default frames waiting between the receive thread and the owner. */
    public static final int DEFAULT_BACKLOG_FRAMES = 8192;
    private static final int MIN_FRAME_BYTES = 14;
    /** Ethernet's minimum frame without FCS, which a NIC pads a shorter one to on the wire. */
    public static final int MIN_WIRE_FRAME_BYTES = 60;
    /** Frames taken from the socket per wake-up of the receive thread. */
    private static final int BATCH = 64;
    private static final long STATS_INTERVAL_NANOS = 200_000_000L;

    private final RawSocket socket;
    private final Scheduler owner;
    private final int maxFrameBytes;
    private final CounterSet<RawPortCounter> counters = new CounterSet<>(RawPortCounter.class);
    private final MessagePassingQueue<byte[]> rxQueue;
    private final AtomicBoolean rxScheduled = new AtomicBoolean();
    private final Runnable drainRx = this::drainRx;
    /** The receive thread, where the port has one (see {@link LoopReceiver}). */
    private volatile Thread receiver;
    /** Receives on the owner's own loop, where it can. */
    private final LoopReceiver onLoop;
    private final Runnable updateSocketDrops = this::periodicSocketDrops;
    private final byte[] sendBuffer;
    private final boolean batchedSends;
    private final IntConsumer sent = this::sent;
    private final Runnable flushTx = this::flushTx;
    /** A flush of the socket's send batch is scheduled on the owner; under {@link #sendBuffer}'s lock. */
    private boolean flushPending;
    private volatile boolean open = true;
    /** Until the socket is closed; under {@link #sendBuffer}'s lock. */
    private boolean socketOpen = true;
    private long socketDropsSeen;

    private RawEthernetPort(String name, RawSocket socket, Scheduler owner, int maxFrameBytes, int backlog) {
        super(name, true);
        this.socket = socket;
        this.owner = owner;
        this.maxFrameBytes = maxFrameBytes;
        this.rxQueue = MessageQueues.spscBounded(backlog);
        this.sendBuffer = new byte[maxFrameBytes];
        this.batchedSends = socket.batchesSends();
        this.onLoop = LoopReceiver.register(socket, maxFrameBytes, owner, this::deliver, this::startReceiveThread);
        if (onLoop == null) {
            startReceiveThread();
        } else {
            owner.schedule(STATS_INTERVAL_NANOS, updateSocketDrops);
        }
    }

    private synchronized void startReceiveThread() {
        if (receiver == null && open) {
            Thread t = new Thread(this::receiveLoop, "raw-" + name());
            t.setDaemon(true);
            receiver = t;
            t.start();
        }
    }

    /** On the owner's loop, receiving there: the kernel's drops every interval. */
    private void periodicSocketDrops() {
        if (open && receiver == null) {
            updateSocketDrops();
            owner.schedule(STATS_INTERVAL_NANOS, updateSocketDrops);
        }
    }

    /**
     * Opens {@code iface} with the {@link RawBackend#AUTO} backend (AF_PACKET, else libpcap) and
     * starts receiving.
     *
     * @param name  the port's name (for counters and captures)
     * @param iface the Linux interface
     * @param owner the scheduler of the switch or NIC the port is attached to
     * @throws IOException naming the interface and why it cannot be opened
     */
    public static RawEthernetPort open(String name, String iface, Scheduler owner) throws IOException {
        return open(name, iface, owner, RawBackend.AUTO);
    }

    /** The same with a chosen backend. */
    public static RawEthernetPort open(String name, String iface, Scheduler owner, RawBackend backend)
        throws IOException {
        return open(name, backend.open(iface, DEFAULT_MAX_FRAME_BYTES), owner, DEFAULT_MAX_FRAME_BYTES,
            DEFAULT_BACKLOG_FRAMES);
    }

    /**
     * @param socket        an open backend socket, which the port now owns
     * @param maxFrameBytes largest frame sent, without FCS
     * @param backlog       frames that may wait for the owner
     */
    public static RawEthernetPort open(String name, RawSocket socket, Scheduler owner, int maxFrameBytes, int backlog) {
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(owner, "owner");
        if (maxFrameBytes < MIN_FRAME_BYTES || backlog < 1) {
            throw new IllegalArgumentException("maxFrameBytes " + maxFrameBytes + ", backlog " + backlog);
        }
        return new RawEthernetPort(name, socket, owner, maxFrameBytes, backlog);
    }

    private void receiveLoop() {
        RawSocket.FrameSink sink = this::received;
        long nextStats = System.nanoTime() + STATS_INTERVAL_NANOS;
        while (open) {
            try {
                if (socket.receive(sink, BATCH) > 0 && rxScheduled.compareAndSet(false, true)) {
                    owner.execute(drainRx);
                }
            } catch (IOException e) {
                if (open) {
                    counters.increment(RawPortCounter.RX_ERRORS);
                    sleepQuietly();
                }
            }
            long now = System.nanoTime();
            if (now >= nextStats) {
                nextStats = now + STATS_INTERVAL_NANOS;
                updateSocketDrops();
            }
        }
    }

    private void updateSocketDrops() {
        long d = socket.droppedAtSocket();
        if (d > socketDropsSeen) {
            counters.add(RawPortCounter.RX_DROPPED_SOCKET, d - socketDropsSeen);
            socketDropsSeen = d;
        }
    }

    /** On the receive thread: one frame from the socket. */
    private void received(byte[] frame) {
        if (frame.length < MIN_FRAME_BYTES) {
            counters.increment(RawPortCounter.RX_DROPPED_RUNT);
        } else if (!rxQueue.offer(frame.length < MIN_WIRE_FRAME_BYTES ? Arrays.copyOf(frame, MIN_WIRE_FRAME_BYTES) : frame)) {
            counters.increment(RawPortCounter.RX_DROPPED_BACKLOG);
        }
    }

    /** On the owner thread, receiving on its loop: one frame from the socket, straight to the receiver. */
    private void deliver(ByteBuf frame) {
        int n = frame.readableBytes();
        FrameReceiver r = receiver();
        if (n < MIN_FRAME_BYTES) {
            counters.increment(RawPortCounter.RX_DROPPED_RUNT);
            frame.release();
        } else if (r == null || !open) {
            counters.increment(RawPortCounter.RX_DROPPED_NO_RECEIVER);
            frame.release();
        } else {
            if (n < MIN_WIRE_FRAME_BYTES) {
                if (frame.maxWritableBytes() < MIN_WIRE_FRAME_BYTES - n) {
                    ByteBuf padded = Unpooled.buffer(MIN_WIRE_FRAME_BYTES).writeBytes(frame);
                    frame.release();
                    frame = padded;
                }
                frame.writeZero(MIN_WIRE_FRAME_BYTES - n);
                n = MIN_WIRE_FRAME_BYTES;
            }
            counters.increment(RawPortCounter.FRAMES_RECEIVED);
            counters.add(RawPortCounter.BYTES_RECEIVED, n);
            r.onFrame(this, frame);
        }
    }

    /** On the owner thread: every frame waiting, in order. */
    private void drainRx() {
        rxScheduled.set(false);
        byte[] f;
        while ((f = rxQueue.poll()) != null) {
            FrameReceiver r = receiver();
            if (r == null || !open) {
                counters.increment(RawPortCounter.RX_DROPPED_NO_RECEIVER);
                continue;
            }
            counters.increment(RawPortCounter.FRAMES_RECEIVED);
            counters.add(RawPortCounter.BYTES_RECEIVED, f.length);
            r.onFrame(this, Unpooled.wrappedBuffer(f));
        }
    }

    @Override
    public void send(ByteBuf frame) {
        try {
            int n = frame.readableBytes();
            if (!open) {
                counters.increment(RawPortCounter.TX_DROPPED_CLOSED);
            } else if (n < MIN_FRAME_BYTES) {
                counters.increment(RawPortCounter.TX_DROPPED_RUNT);
            } else if (n > maxFrameBytes) {
                counters.increment(RawPortCounter.TX_DROPPED_OVERSIZED);
            } else if (batchedSends && owner.inOwnerThread()) {
                // gathered: the owner's tasks of this turn add theirs, one system call writes them
                synchronized (sendBuffer) {
                    int refused = socket.queue(frame, frame.readerIndex(), n, sent);
                    if (refused > 0) {
                        counters.add(RawPortCounter.TX_ERRORS, refused);
                    }
                    if (!flushPending) {
                        flushPending = true;
                        owner.execute(flushTx);
                    }
                }
            } else {
                synchronized (sendBuffer) {
                    if (batchedSends) {
                        flushTx(); // what the owner gathered goes first
                    }
                    frame.getBytes(frame.readerIndex(), sendBuffer, 0, n);
                    socket.send(sendBuffer, n);
                }
                sent(n);
            }
        } catch (IOException e) {
            counters.increment(RawPortCounter.TX_ERRORS);
        } finally {
            frame.release();
        }
    }

    /** A frame of {@code length} bytes went out. */
    private void sent(int length) {
        counters.increment(RawPortCounter.FRAMES_SENT);
        counters.add(RawPortCounter.BYTES_SENT, length);
    }

    /** On the owner thread, after the tasks that were due when the first frame was gathered. */
    private void flushTx() {
        synchronized (sendBuffer) {
            flushPending = false;
            if (!socketOpen) {
                return;
            }
            int refused = socket.flush(sent);
            if (refused > 0) {
                counters.add(RawPortCounter.TX_ERRORS, refused);
            }
        }
    }

    /** @return the port's counters; readable from any thread */
    public CounterSet<RawPortCounter> counters() {
        return counters;
    }

    /**
     * @return the backend and interface and where frames are received, e.g. {@code pcap veth0
     *         (libpcap version 1.10.3), a receive thread}
     */
    public String describe() {
        return socket.describe() + (receiver == null ? ", received on the owner's epoll loop" : ", a receive thread");
    }

    /** Stops receiving, waits for the receive thread, closes the socket; the link goes down. */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        Thread t;
        synchronized (this) {
            t = receiver;
        }
        if (t == null) {
            // receiving on the owner's loop: stop there, then nothing reads the socket any more
            if (owner.inOwnerThread()) {
                stopOnLoop();
            } else {
                CountDownLatch stopped = new CountDownLatch(1);
                try {
                    owner.execute(() -> {
                        stopOnLoop();
                        stopped.countDown();
                    });
                    stopped.await(5, TimeUnit.SECONDS);
                } catch (RuntimeException e) {
                    // the owner is gone: no loop reads the socket any more
                    onLoop.cancel();
                    closeSocket();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return;
        }
        socket.wakeUp();
        try {
            t.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!t.isAlive()) {
            closeSocket();
        }
        try {
            owner.execute(() -> updateLinkState(false));
        } catch (RuntimeException e) {
            // the owner is gone too: nobody is left to tell
        }
    }

    private void stopOnLoop() {
        if (onLoop != null) {
            onLoop.cancel();
        }
        closeSocket();
        updateLinkState(false);
    }

    private void closeSocket() {
        synchronized (sendBuffer) {
            if (!socketOpen) {
                return;
            }
        }
        updateSocketDrops();
        if (batchedSends) {
            flushTx();
        }
        synchronized (sendBuffer) {
            socketOpen = false;
        }
        // the socket is closed only once nothing waits on it (libpcap frees its buffers)
        socket.close();
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "RawEthernetPort[" + name() + " on " + socket.describe() + "]";
    }
}
