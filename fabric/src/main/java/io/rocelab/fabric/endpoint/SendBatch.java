package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.rocelab.fabric.stats.CounterSet;
import org.agrona.collections.Int2ObjectHashMap;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * The UDP payloads a NIC sent since the last flush, written out together: every packet is written,
 * then each socket written to is flushed once, so epoll hands a burst to the kernel with one
 * sendmmsg per socket instead of one sendmsg per packet.
 *
 * <p>With segmentation offload, consecutive packets of one source port to one destination that have
 * the same length (the middle packets of a message all carry one path MTU of payload) go as one
 * buffer with UDP_SEGMENT set: the kernel cuts it into datagrams of that length (the last one may be
 * shorter) after the whole stack has been crossed once. At most {@value #MAX_SEGMENTS} segments
 * (the kernel's UDP_MAX_SEGMENTS) and {@value #MAX_GSO_BYTES} bytes (one IPv4 datagram) go at once.
 *
 * <p>The packets of a GSO buffer are copied into one pooled direct buffer rather than joined in a
 * {@code CompositeByteBuf}: Netty's epoll transport builds the iovec of a composite from its
 * {@code nioBuffers()}, which allocates a {@code ByteBuffer[]}, a duplicate and a slice per
 * component, on top of the composite's own components. In a JFR recording of a 10 s
 * {@code ib_write_bw --udp-endpoint} client at 3 Gb/s that was about 135 MB of the 157 MB its event
 * loop allocated; young collections paused that JVM for up to 82 ms on the loaded 2-core machine,
 * longer than perftest's default 67 ms ACK timeout, and each such pause is a spurious timeout and a
 * resent window. A copy of up to 64 KB that stays in the cache costs a few microseconds per buffer,
 * and the kernel then gets one iovec instead of up to 64.
 *
 * <p>A NIC that writes its packets in place ({@link UdpPayloadSink}) skips that copy: {@link #claim}
 * hands out space at the end of the current run's buffer as long as the packet can join the run (same
 * source port and destination, not longer than the run's segment, the run not ended by a shorter
 * one, within the limits above), else queues the run and starts another. Queued runs and single
 * payloads leave in the order they were queued. Owner thread only.
 */
final class SendBatch {
    static final int MAX_SEGMENTS = 64;
    static final int MAX_GSO_BYTES = 65_507;

    private final SourcePortSockets sockets;
    private final ByteBufAllocator alloc;
    private final CounterSet<UdpEndpointCounter> counters;
    private final Int2ObjectHashMap<InetSocketAddress> destinations = new Int2ObjectHashMap<>();
    private final DatagramChannel[] dirty = new DatagramChannel[64];
    private int dirtyCount;
    private int[] srcPorts = new int[256];
    private int[] dstIps = new int[256];
    private ByteBuf[] payloads = new ByteBuf[256];
    /** 0: {@code payloads[i]} is one packet; else it is a run built in place, cut at this size. */
    private int[] runSegments = new int[256];
    /** The packets of a run built in place (1 for a single packet). */
    private int[] runCounts = new int[256];
    private int size;
    /** The run being built in place, or null; its fields below. */
    private ByteBuf run;
    private int runPort;
    private int runDst;
    private int runSegment;
    private int runCount;
    /** A packet shorter than the segment ended the run: only the last segment may be shorter. */
    private boolean runEnded;
    private int claimLength = -1;
    private boolean gso;
    /** e.g. EINVAL when a segment and its headers exceed the route's MTU: counted, and from then on
     *  one datagram per packet, which always works. One instance: nothing allocated per write. */
    private final ChannelFutureListener gsoFailure;

    SendBatch(SourcePortSockets sockets, ByteBufAllocator alloc, CounterSet<UdpEndpointCounter> counters, boolean gso) {
        this.sockets = sockets;
        this.alloc = alloc;
        this.counters = counters;
        this.gso = gso;
        this.gsoFailure = f -> {
            if (!f.isSuccess()) {
                counters.increment(UdpEndpointCounter.TX_ERRORS);
                disableGso();
            }
        };
    }

    /** Queues one UDP payload (ownership passes here); returns whether the batch was empty before. */
    boolean add(int srcPort, int dstIp, ByteBuf payload) {
        final boolean wasEmpty = isEmpty();
        closeRun(); // whatever was built in place before this payload leaves before it
        queue(srcPort, dstIp, payload, 0, 1);
        return wasEmpty;
    }

    /** Whether nothing waits to be sent (nor is being built in place). */
    boolean isEmpty() {
        return size == 0 && run == null;
    }

    private void queue(int srcPort, int dstIp, ByteBuf payload, int segment, int count) {
        if (size == payloads.length) {
            srcPorts = java.util.Arrays.copyOf(srcPorts, size * 2);
            dstIps = java.util.Arrays.copyOf(dstIps, size * 2);
            payloads = java.util.Arrays.copyOf(payloads, size * 2);
            runSegments = java.util.Arrays.copyOf(runSegments, size * 2);
            runCounts = java.util.Arrays.copyOf(runCounts, size * 2);
        }
        srcPorts[size] = srcPort;
        dstIps[size] = dstIp;
        payloads[size] = payload;
        runSegments[size] = segment;
        runCounts[size] = count;
        size++;
    }

    /**
     * Space for one payload of {@code length} bytes, in place at the end of the current run (see
     * {@link UdpPayloadSink#claim}); only with GSO on. An open claim not yet committed is given back.
     */
    ByteBuf claim(int srcPort, int dstIp, int length) {
        if (claimLength >= 0) {
            abort();
        }
        if (run != null && (srcPort != runPort || dstIp != runDst || runEnded || length > runSegment
            || runCount == MAX_SEGMENTS || run.writerIndex() + length > MAX_GSO_BYTES)) {
            closeRun();
        }
        if (run == null) {
            run = alloc.directBuffer(MAX_GSO_BYTES);
            runPort = srcPort;
            runDst = dstIp;
            runSegment = length;
            runCount = 0;
            runEnded = false;
        }
        run.writerIndex(run.writerIndex() + length);
        claimLength = length;
        return run;
    }

    /** The open claim is a packet of the run. */
    void commit() {
        if (claimLength < 0) {
            throw new IllegalStateException("no open claim");
        }
        runCount++;
        if (claimLength < runSegment) {
            runEnded = true;
        }
        claimLength = -1;
    }

    /** The open claim is given back; nothing if none is open. */
    void abort() {
        if (claimLength >= 0) {
            run.writerIndex(run.writerIndex() - claimLength);
            claimLength = -1;
        }
    }

    /** Queues the run built in place, if it holds a packet; frees its buffer if it holds none. */
    private void closeRun() {
        if (run == null) {
            return;
        }
        abort();
        if (runCount == 0) {
            run.release();
        } else {
            queue(runPort, runDst, run, runSegment, runCount);
        }
        run = null;
    }

    /** Whether runs of equal-sized packets are still sent as GSO buffers. */
    boolean gso() {
        return gso;
    }

    /** Stops using GSO (after the kernel refused a segmented send). */
    void disableGso() {
        gso = false;
    }

    /** Writes everything queued and flushes each socket once. */
    void flush() {
        closeRun();
        int i = 0;
        while (i < size) {
            final int port = srcPorts[i];
            final int dst = dstIps[i];
            final DatagramChannel ch = sockets.get(port);
            int j = i + 1;
            if (ch == null) {
                while (j < size && srcPorts[j] == port) {
                    j++;
                }
                drop(i, j, UdpEndpointCounter.TX_DROPPED_SOURCE_PORT_BUSY);
                i = j;
                continue;
            }
            if (runSegments[i] != 0) {
                writeRun(ch, i, destination(dst));
                i++;
                continue;
            }
            final int segment = payloads[i].readableBytes();
            if (gso) {
                int total = segment;
                while (j < size && j - i < MAX_SEGMENTS && srcPorts[j] == port && dstIps[j] == dst
                    && runSegments[j] == 0) {
                    final int len = payloads[j].readableBytes();
                    if (len > segment || total + len > MAX_GSO_BYTES) {
                        break;
                    }
                    total += len;
                    j++;
                    if (len < segment) {
                        break; // a shorter segment can only be the last
                    }
                }
            }
            write(ch, i, j, segment, destination(dst));
            i = j;
        }
        size = 0;
        for (int k = 0; k < dirtyCount; k++) {
            dirty[k].flush();
            dirty[k] = null;
        }
        dirtyCount = 0;
    }

    private void write(DatagramChannel ch, int from, int to, int segment, InetSocketAddress dst) {
        final int count = to - from;
        long bytes = 0;
        if (count == 1) {
            final ByteBuf payload = payloads[from];
            payloads[from] = null;
            bytes = payload.readableBytes();
            ch.write(new DatagramPacket(payload, dst), ch.voidPromise());
        } else {
            for (int k = from; k < to; k++) {
                bytes += payloads[k].readableBytes();
            }
            final ByteBuf joined = alloc.directBuffer((int) bytes);
            try {
                for (int k = from; k < to; k++) {
                    final ByteBuf p = payloads[k];
                    joined.writeBytes(p, p.readerIndex(), p.readableBytes());
                    p.release();
                    payloads[k] = null;
                }
            } catch (RuntimeException e) {
                joined.release();
                throw e; // flushBatch counts it and discards what is left
            }
            counters.increment(UdpEndpointCounter.GSO_SENDS);
            ch.write(new SegmentedDatagramPacket(joined, segment, dst)).addListener(gsoFailure);
        }
        counters.add(UdpEndpointCounter.PACKETS_SENT, count);
        counters.add(UdpEndpointCounter.BYTES_SENT, bytes);
        markDirty(ch);
    }

    /** A run built in place: its buffer goes as it is, as one GSO send if it holds several packets. */
    private void writeRun(DatagramChannel ch, int i, InetSocketAddress dst) {
        final ByteBuf buf = payloads[i];
        payloads[i] = null;
        final int count = runCounts[i];
        final long bytes = buf.readableBytes();
        if (count == 1) {
            ch.write(new DatagramPacket(buf, dst), ch.voidPromise());
        } else {
            counters.increment(UdpEndpointCounter.GSO_SENDS);
            ch.write(new SegmentedDatagramPacket(buf, runSegments[i], dst)).addListener(gsoFailure);
        }
        counters.add(UdpEndpointCounter.PACKETS_SENT, count);
        counters.add(UdpEndpointCounter.BYTES_SENT, bytes);
        markDirty(ch);
    }

    private void markDirty(DatagramChannel ch) {
        for (int k = 0; k < dirtyCount; k++) {
            if (dirty[k] == ch) {
                return;
            }
        }
        if (dirtyCount == dirty.length) {
            ch.flush();
            return;
        }
        dirty[dirtyCount++] = ch;
    }

    private void drop(int from, int to, UdpEndpointCounter reason) {
        for (int k = from; k < to; k++) {
            payloads[k].release();
            payloads[k] = null;
            counters.add(reason, runCounts[k]);
        }
    }

    /** Releases everything queued and not yet written, without sending it. */
    void discard(UdpEndpointCounter reason) {
        closeRun();
        for (int k = 0; k < size; k++) {
            if (payloads[k] != null) {
                payloads[k].release();
                payloads[k] = null;
                counters.add(reason, runCounts[k]);
            }
        }
        size = 0;
        for (int k = 0; k < dirtyCount; k++) {
            dirty[k].flush(); // what was written before the failure still goes
            dirty[k] = null;
        }
        dirtyCount = 0;
    }

    /** The destination of an IPv4 address, port 4791; cached, so steady state allocates nothing. */
    private InetSocketAddress destination(int ip) {
        InetSocketAddress a = destinations.get(ip);
        if (a == null) {
            a = new InetSocketAddress(toInet(ip), io.rocelab.codec.header.Udp.ROCEV2_PORT);
            destinations.put(ip, a);
        }
        return a;
    }

    static Inet4Address toInet(int ip) {
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[] {
                (byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip});
        } catch (UnknownHostException e) {
            throw new AssertionError(e); // four bytes are always an address
        }
    }
}
