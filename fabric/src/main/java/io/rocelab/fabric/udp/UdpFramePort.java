package io.rocelab.fabric.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.rocelab.fabric.endpoint.UdpTransport;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.RealTimeScheduler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A {@link io.rocelab.fabric.port.FramePort} that carries each Ethernet frame as one UDP datagram.
 *
 * <p>Why: it is exactly qemu's socket netdev, {@code -netdev socket,id=n0,udp=127.0.0.1:RPORT,
 * localaddr=127.0.0.1:LPORT}: the datagram payload is the frame from the destination MAC on, with
 * no extra header and no FCS. So a soft NIC or a switch port can be joined to a qemu VM running
 * Linux rdma_rxe, or to another rocelab process on this or another host, with no tap device, no
 * namespace and no root. The port binds a local UDP address, sends every frame to one remote address
 * and, like qemu, accepts datagrams from any source.
 *
 * <p>Ethernet frames travel whole, so datagrams are limited by the maximum frame size (default
 * {@value #DEFAULT_MAX_FRAME_BYTES}, a common jumbo limit): longer ones and ones shorter than an
 * Ethernet header are counted and dropped, on both sides. Frames shorter than 60 bytes are passed
 * as they are (qemu's virtio NICs do not pad), unless the port {@linkplain Builder#padShortFrames pads
 * them} to Ethernet's minimum as a NIC does on a wire: what a switch port needs, since a switch
 * drops runts (a VM's 42-byte ARP request among them).
 *
 * <p>Threading: the port's owner thread is the event loop it is opened on; the receiver and
 * link-state listeners run there. Attach the NIC or switch to a {@link RealTimeScheduler} on the same
 * loop ({@link Builder#open(RealTimeScheduler)}) and, by default, no frame changes threads.
 *
 * <p>Losses: the kernel caps SO_RCVBUF at {@code net.core.rmem_max} without saying so (212992 bytes
 * by default: a few dozen 4 KB frames, less than one RC window of 128), and a datagram that finds
 * the buffer full is dropped where this process cannot count it ({@code RcvbufErrors} in
 * {@code /proc/net/snmp}); an RC sender pays for it with a go-back-N retry or a 67 ms ACK timeout.
 * {@link #receiveBufferBytes()} and {@link #receiveBufferCapped()} tell what was granted. Two
 * options help a receiver that cannot take bursts: {@link Builder#socketThread} gives the socket a
 * thread of its own that only moves datagrams between the socket and two bounded queues (frames the
 * owner cannot keep up with wait there, and beyond {@link Builder#receiveBacklog} are dropped and
 * counted, {@link UdpPortCounter#RX_DROPPED_BACKLOG}; sends are written in batches with one flush);
 * and {@link Builder#transmitRate} paces the sender for a receiver it cannot change (a qemu VM's
 * socket netdev). Order is kept in both directions. The link is up from bind to {@link #close()}.
 */
public final class UdpFramePort extends AbstractFramePort implements AutoCloseable {

    /** Default largest frame, without FCS: 9216 bytes, a common jumbo-frame limit. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 9216;

    /** Shorter datagrams cannot hold an Ethernet header (destination, source, EtherType). */
    public static final int MIN_FRAME_BYTES = 14;

    private static final long BIND_TIMEOUT_SECONDS = 10;

    /** Default length of the receive and send queues between the socket thread and the owner. */
    public static final int DEFAULT_BACKLOG_FRAMES = 8192;

    /** Datagrams read per wake-up of the socket's loop (Netty's default is 16). */
    private static final int MAX_MESSAGES_PER_READ = 64;

    private final EventLoop loop;
    /** The loop serving the socket: {@link #loop}, or the port's own socket thread. */
    private final EventLoop ioLoop;
    private final EventLoopGroup ioGroup;
    private final int maxFrameBytes;
    /** Ethernet's minimum frame without FCS, which a NIC pads a shorter one to on the wire. */
    public static final int MIN_WIRE_FRAME_BYTES = 60;
    private final boolean padShortFrames;
    private final int requestedSocketBufferBytes;
    private final CounterSet<UdpPortCounter> counters = new CounterSet<>(UdpPortCounter.class);
    private final Channel channel;
    private final ArrayBlockingQueue<ByteBuf> txQueue;
    private final ArrayBlockingQueue<ByteBuf> rxQueue;
    private final AtomicBoolean txScheduled = new AtomicBoolean();
    private final AtomicBoolean rxScheduled = new AtomicBoolean();
    private final Runnable drainTx = this::drainTx;
    private final Runnable drainRx = this::drainRx;
    private final double rateBytesPerSecond;
    private final double burstBytes;
    /** Pacer state, socket thread only. */
    private double tokens;
    private long lastRefill = System.nanoTime();
    private boolean pacedWait;
    private volatile InetSocketAddress remoteAddress;

    private UdpFramePort(Builder b, EventLoop loop) {
        super(b.name, true);
        this.loop = loop;
        this.maxFrameBytes = b.maxFrameBytes;
        this.padShortFrames = b.padShortFrames;
        this.remoteAddress = b.remoteAddress;
        this.requestedSocketBufferBytes = b.socketBufferBytes;
        this.rateBytesPerSecond = b.rateGbps * 1e9 / 8;
        this.burstBytes = b.burstBytes;
        this.tokens = b.burstBytes;
        if (b.socketThread || b.rateGbps > 0) {
            ioGroup = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(b.name + "-socket", true),
                NioIoHandler.newFactory());
            ioLoop = ioGroup.next();
            txQueue = new ArrayBlockingQueue<>(b.backlogFrames);
            rxQueue = new ArrayBlockingQueue<>(b.backlogFrames);
        } else {
            ioGroup = null;
            ioLoop = loop;
            txQueue = null;
            rxQueue = null;
        }
        final ChannelFuture bind = new Bootstrap()
            .group(ioLoop)
            // the loop's own kind: an epoll channel on an epoll loop (a RealTimeScheduler's, where epoll loads)
            .channel(UdpTransport.of(ioLoop).datagramChannelClass())
            // one byte more than the largest frame: a longer datagram is truncated by the kernel to
            // exactly maxFrameBytes + 1 bytes, which is how it is recognised as oversized
            .option(ChannelOption.RECVBUF_ALLOCATOR,
                new FixedRecvByteBufAllocator(maxFrameBytes + 1).maxMessagesPerRead(MAX_MESSAGES_PER_READ))
            .option(ChannelOption.SO_RCVBUF, b.socketBufferBytes)
            .option(ChannelOption.SO_SNDBUF, b.socketBufferBytes)
            .handler(new Handler())
            .bind(b.localAddress);
        if (!bind.awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            bind.cancel(false);
            bind.channel().close();
            shutdownIoGroup();
            throw new IllegalStateException("binding " + b.localAddress + " timed out");
        }
        if (!bind.isSuccess()) {
            bind.channel().close();
            shutdownIoGroup();
            final Throwable cause = bind.cause();
            throw cause instanceof IOException
                ? new UncheckedIOException("cannot bind UDP " + b.localAddress, (IOException) cause)
                : new IllegalStateException("cannot bind UDP " + b.localAddress, cause);
        }
        this.channel = bind.channel();
    }

    /**
     * @return a builder for a port on 127.0.0.1, ephemeral local port, no remote yet
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void send(ByteBuf frame) {
        if (txQueue != null) {
            if (!channel.isActive()) {
                drop(frame, UdpPortCounter.TX_DROPPED_CLOSED);
                return;
            }
            if (!txQueue.offer(frame)) {
                drop(frame, UdpPortCounter.TX_DROPPED_BACKLOG);
                return;
            }
            if (txScheduled.compareAndSet(false, true)) {
                try {
                    ioLoop.execute(drainTx);
                } catch (RejectedExecutionException e) {
                    for (ByteBuf f; (f = txQueue.poll()) != null; ) {
                        drop(f, UdpPortCounter.TX_DROPPED_CLOSED);
                    }
                }
            }
            return;
        }
        if (loop.inEventLoop()) {
            write(frame, true);
            return;
        }
        try {
            loop.execute(() -> write(frame, true));
        } catch (RejectedExecutionException e) {
            frame.release();
        }
    }

    /** On the socket thread: everything queued so far (as the pacer allows), then one flush. */
    private void drainTx() {
        txScheduled.set(false);
        if (!pacedWait) {
            pump();
        }
    }

    /**
     * On the socket thread. With a transmit rate, a token bucket (rate, burst) decides when the
     * head frame may go; otherwise a timer on the socket's loop comes back for it. The frames wait
     * in the send queue meanwhile, so pacing loses nothing until that queue is full.
     */
    private void pump() {
        boolean wrote = false;
        for (ByteBuf f; (f = txQueue.peek()) != null; ) {
            if (rateBytesPerSecond > 0) {
                long now = System.nanoTime();
                tokens = Math.min(burstBytes, tokens + (now - lastRefill) * rateBytesPerSecond / 1e9);
                lastRefill = now;
                int len = f.readableBytes();
                if (tokens < len) {
                    long waitNanos = (long) ((len - tokens) * 1e9 / rateBytesPerSecond);
                    pacedWait = true;
                    ioLoop.schedule(() -> {
                        pacedWait = false;
                        pump();
                    }, Math.max(waitNanos, 1_000L), TimeUnit.NANOSECONDS);
                    break;
                }
                tokens -= len;
            }
            txQueue.poll();
            wrote |= write(f, false);
        }
        if (wrote) {
            channel.flush();
        }
    }

    /** On the owner thread: hands the frames the socket thread read to the receiver, in order. */
    private void drainRx() {
        rxScheduled.set(false);
        for (ByteBuf f; (f = rxQueue.poll()) != null; ) {
            deliver(f);
        }
    }

    private static void releaseAll(java.util.Queue<ByteBuf> q) {
        for (ByteBuf f; (f = q.poll()) != null; ) {
            f.release();
        }
    }

    private void shutdownIoGroup() {
        if (ioGroup != null) {
            ioGroup.shutdownGracefully(0, BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .awaitUninterruptibly(2 * BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /**
     * @return the bound local address (with the actual port if 0 was asked for)
     */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) channel.localAddress();
    }

    /**
     * @return where frames are sent, or {@code null}
     */
    public InetSocketAddress remoteAddress() {
        return remoteAddress;
    }

    /**
     * Sets where frames are sent, e.g. once the peer's ephemeral port is known.
     *
     * @param address the peer (qemu's {@code localaddr}, or another port's {@link #localAddress()})
     */
    public void setRemoteAddress(InetSocketAddress address) {
        this.remoteAddress = Objects.requireNonNull(address, "address");
    }

    /**
     * @return the largest frame sent or accepted
     */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * @return the SO_RCVBUF the kernel granted, as it reports it (Linux doubles the request, and caps
     *         the request at {@code net.core.rmem_max} without saying so)
     */
    public int receiveBufferBytes() {
        return ((io.netty.channel.socket.DatagramChannelConfig) channel.config()).getReceiveBufferSize();
    }

    /**
     * @return whether the kernel granted less receive buffer than was asked for (a privileged user
     *         may raise {@code net.core.rmem_max}); the port then relies on its socket thread
     */
    public boolean receiveBufferCapped() {
        return receiveBufferBytes() < requestedSocketBufferBytes;
    }

    /**
     * @return the event loop that owns this port
     */
    public EventLoop eventLoop() {
        return loop;
    }

    /**
     * @return this port's counters, readable from any thread
     */
    public CounterSet<UdpPortCounter> counters() {
        return counters;
    }

    /**
     * Closes the socket (waiting a few seconds at most); the link goes down and listeners are told.
     */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        shutdownIoGroup();
        if (txQueue != null) {
            releaseAll(txQueue);
            releaseAll(rxQueue);
        }
    }

    @Override
    public String toString() {
        return "UdpFramePort[" + name() + ", " + channel.localAddress() + " -> " + remoteAddress
            + ", rcvbuf " + receiveBufferBytes() + (receiveBufferCapped() ? " (capped)" : "")
            + (isUp() ? "" : ", down") + "]";
    }

    /** On the socket's loop; returns whether the frame was written. */
    private boolean write(ByteBuf frame, boolean flush) {
        final int length = frame.readableBytes();
        final InetSocketAddress remote = remoteAddress;
        if (!channel.isActive()) {
            drop(frame, UdpPortCounter.TX_DROPPED_CLOSED);
        } else if (length < MIN_FRAME_BYTES) {
            drop(frame, UdpPortCounter.TX_DROPPED_RUNT);
        } else if (length > maxFrameBytes) {
            drop(frame, UdpPortCounter.TX_DROPPED_OVERSIZED);
        } else if (remote == null) {
            drop(frame, UdpPortCounter.TX_DROPPED_NO_REMOTE);
        } else {
            counters.increment(UdpPortCounter.FRAMES_SENT);
            counters.add(UdpPortCounter.BYTES_SENT, length);
            // a failed write reaches exceptionCaught through the void promise and is counted there;
            // a full socket send buffer holds the rest in Netty's outbound buffer (no loss)
            if (flush) {
                channel.writeAndFlush(new DatagramPacket(frame, remote), channel.voidPromise());
            } else {
                channel.write(new DatagramPacket(frame, remote), channel.voidPromise());
            }
            return true;
        }
        return false;
    }

    private void drop(ByteBuf frame, UdpPortCounter reason) {
        frame.release();
        counters.increment(reason);
    }

    /** Receives datagrams on the event loop; never throws a bad datagram up the pipeline. */
    private final class Handler extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            ByteBuf frame = ((DatagramPacket) msg).content();
            final int length = frame.readableBytes();
            if (length < MIN_FRAME_BYTES) {
                drop(frame, UdpPortCounter.RX_DROPPED_RUNT);
                return;
            }
            if (padShortFrames && length < MIN_WIRE_FRAME_BYTES) {
                ByteBuf padded = ctx.alloc().buffer(MIN_WIRE_FRAME_BYTES);
                padded.writeBytes(frame).writeZero(MIN_WIRE_FRAME_BYTES - length);
                frame.release();
                frame = padded;
            }
            if (length > maxFrameBytes) {
                drop(frame, UdpPortCounter.RX_DROPPED_OVERSIZED);
                return;
            }
            if (rxQueue == null) {
                deliver(frame);
                return;
            }
            if (!rxQueue.offer(frame)) {
                drop(frame, UdpPortCounter.RX_DROPPED_BACKLOG);
                return;
            }
            if (rxScheduled.compareAndSet(false, true)) {
                try {
                    loop.execute(drainRx);
                } catch (RejectedExecutionException e) {
                    releaseAll(rxQueue);
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            counters.increment(UdpPortCounter.ERRORS);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ioLoop == loop) {
                updateLinkState(false);
            } else {
                try {
                    loop.execute(() -> updateLinkState(false));
                } catch (RejectedExecutionException e) {
                    updateLinkState(false);
                }
            }
            ctx.fireChannelInactive();
        }
    }

    /** On the owner thread. */
    private void deliver(ByteBuf frame) {
        final FrameReceiver receiver = receiver();
        if (receiver == null) {
            drop(frame, UdpPortCounter.RX_DROPPED_NO_RECEIVER);
            return;
        }
        counters.increment(UdpPortCounter.FRAMES_RECEIVED);
        counters.add(UdpPortCounter.BYTES_RECEIVED, frame.readableBytes());
        receiver.onFrame(UdpFramePort.this, frame);
    }

    /** Configures and opens a {@link UdpFramePort}. */
    public static final class Builder {
        private String name = "udp";
        private InetSocketAddress localAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private InetSocketAddress remoteAddress;
        private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
        private boolean padShortFrames;
        private int socketBufferBytes = 4 << 20;
        private boolean socketThread;
        private int backlogFrames = DEFAULT_BACKLOG_FRAMES;
        private double rateGbps;
        private int burstBytes;

        private Builder() {
        }

        /**
         * @param on whether the socket gets a thread of its own that empties the kernel's receive
         *           buffer into a queue as datagrams arrive; off (the default), the socket is served
         *           by the owner loop and no frame changes threads. On a machine with spare cores it
         *           keeps reading while the owner is busy; on a loaded 2-core one the extra thread
         *           competes for the same CPU and gains little.
         * @return this
         */
        public Builder socketThread(boolean on) {
            this.socketThread = on;
            return this;
        }

        /**
         * Paces what the port sends: a token bucket of {@code burstBytes} filled at {@code gbps}.
         * Why: a receiver whose socket buffer is small (a qemu VM's socket netdev, a peer on a host
         * whose {@code net.core.rmem_max} is the default) drops a burst it cannot read at once;
         * frames held back here wait in the send queue instead of being lost over there. Timers on
         * the socket thread are about a millisecond apart, so {@code burstBytes} should hold at
         * least a millisecond at {@code gbps}. Turns the socket thread on.
         *
         * @param gbps       rate in Gb/s of frame bytes, 0 for none (the default)
         * @param burstBytes the most sent at once after an idle time, at least one largest frame
         * @return this
         */
        public Builder transmitRate(double gbps, int burstBytes) {
            if (!(gbps >= 0) || Double.isInfinite(gbps)) {
                throw new IllegalArgumentException("gbps must be >= 0: " + gbps);
            }
            if (gbps > 0 && burstBytes < maxFrameBytes) {
                throw new IllegalArgumentException("burstBytes must hold a largest frame (" + maxFrameBytes + "): "
                    + burstBytes);
            }
            this.rateGbps = gbps;
            this.burstBytes = burstBytes;
            return this;
        }

        /**
         * @param frames how many received frames may wait for the owner thread, and how many frames
         *               to send may wait for the socket thread, before more are dropped and counted;
         *               default {@value UdpFramePort#DEFAULT_BACKLOG_FRAMES}
         * @return this
         */
        public Builder receiveBacklog(int frames) {
            if (frames <= 0) {
                throw new IllegalArgumentException("receiveBacklog must be > 0: " + frames);
            }
            this.backlogFrames = frames;
            return this;
        }

        /**
         * @param portName for logs and counters
         * @return this
         */
        public Builder name(String portName) {
            this.name = Objects.requireNonNull(portName, "portName");
            return this;
        }

        /**
         * @param address local address to bind (qemu's {@code udp=} address); port 0 for ephemeral
         * @return this
         */
        public Builder localAddress(InetSocketAddress address) {
            this.localAddress = Objects.requireNonNull(address, "address");
            return this;
        }

        /**
         * @param port local port on 127.0.0.1 (0 for ephemeral)
         * @return this
         */
        public Builder localPort(int port) {
            return localAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), checkPort(port)));
        }

        /**
         * @param address where to send frames (qemu's {@code localaddr=} address)
         * @return this
         */
        public Builder remoteAddress(InetSocketAddress address) {
            this.remoteAddress = Objects.requireNonNull(address, "address");
            return this;
        }

        /**
         * @param port remote port on 127.0.0.1
         * @return this
         */
        public Builder remotePort(int port) {
            if (port == 0) {
                throw new IllegalArgumentException("remote port must not be 0");
            }
            return remoteAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), checkPort(port)));
        }

        /**
         * Received frames shorter than {@value #MIN_WIRE_FRAME_BYTES} bytes are padded with zeros to that
         * length, as a NIC pads them on a wire (off by default: frames pass as the peer sent them).
         *
         * @return this
         */
        public Builder padShortFrames(boolean on) {
            this.padShortFrames = on;
            return this;
        }

        /**
         * @param bytes largest frame without FCS, at least 14 and at most 65507 (the largest UDP
         *              payload over IPv4)
         * @return this
         */
        public Builder maxFrameBytes(int bytes) {
            if (bytes < MIN_FRAME_BYTES || bytes > 65_507) {
                throw new IllegalArgumentException("maxFrameBytes must be in [14, 65507]: " + bytes);
            }
            this.maxFrameBytes = bytes;
            return this;
        }

        /**
         * @param bytes requested SO_RCVBUF and SO_SNDBUF (the kernel may cap it); default 4 MiB
         * @return this
         */
        public Builder socketBufferBytes(int bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("socketBufferBytes must be > 0: " + bytes);
            }
            this.socketBufferBytes = bytes;
            return this;
        }

        /**
         * Binds the port on an event loop and waits (a few seconds at most) for the bind.
         *
         * @param loop an event loop of a {@code MultiThreadIoEventLoopGroup} with {@code EpollIoHandler} or
         *             {@code NioIoHandler}: the port's channel is of the same kind
         * @return the open port
         * @throws UncheckedIOException if the address cannot be bound
         */
        public UdpFramePort open(EventLoop loop) {
            return new UdpFramePort(this, Objects.requireNonNull(loop, "loop"));
        }

        /**
         * Binds the port on the scheduler's event loop, so the NIC or switch using that scheduler and
         * this port share one owner thread.
         *
         * @param scheduler the owner
         * @return the open port
         */
        public UdpFramePort open(RealTimeScheduler scheduler) {
            return open(scheduler.eventLoop());
        }

        private static int checkPort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
            }
            return port;
        }
    }
}
