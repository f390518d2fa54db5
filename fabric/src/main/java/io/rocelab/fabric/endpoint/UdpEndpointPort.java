package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.rocelab.codec.header.Udp;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.stats.CounterSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link io.rocelab.fabric.port.FramePort} that puts a soft NIC on the host's IP stack as a RoCEv2
 * endpoint (UDP endpoint mode): what the NIC sends leaves as a UDP datagram to port 4791 of the
 * destination IP, carrying exactly what a RoCEv2 NIC puts after the UDP header (BTH, extension
 * headers, payload, pad, ICRC), and the kernel makes the Ethernet, IP and UDP headers. The NIC runs
 * unchanged on frames:
 *
 * <ul>
 *   <li><b>send</b>: the Ethernet/IPv4/UDP headers of the NIC's frame are checked and stripped, and
 *       the rest goes from a socket bound to the local address and the frame's UDP source port, the
 *       QP's (see {@link SourcePortSockets} for why), to the frame's destination IP, port 4791. No
 *       neighbour resolution is needed: the NIC's ARP requests are answered by the port at once
 *       ({@link ArpAnswers}). Frames are collected and written as a batch when the owner loop has
 *       finished its current work, with one flush per socket, and as GSO buffers where the kernel
 *       supports UDP segmentation offload ({@link SendBatch}). A NIC on the port's loop may skip
 *       the frame and write each packet in place in the GSO buffer ({@link UdpPayloadSink}).</li>
 *   <li><b>receive</b>: one socket on the local address, port 4791, read with UDP GRO (coalesced
 *       reads of up to 64 KB) where the kernel has it, else with recvmmsg; each datagram becomes a frame with Ethernet/IPv4/UDP headers rebuilt from
 *       the sender's address and port and the local address ({@link DatagramFrames}), written in
 *       the read buffer just before the datagram where those bytes are free, its payload not
 *       copied ({@link InPlaceFrames}); the NIC
 *       checks the ICRC as usual: over the real addresses and ports, with the identification and
 *       flags both ends fix (identification 0, DF; the NIC must be built with
 *       {@code fixedIpId(0)}, and frames that are not are counted and dropped here).</li>
 * </ul>
 *
 * <p>IPv4 only. The ECN bits of received datagrams are not visible: Netty has no IP_RECVTOS option,
 * and although the socket option could be set as a raw one, Netty's native recvmsg parses only the
 * UDP_GRO and IP_RECVORIGDSTADDR control messages (and recvmmsg passes no control buffer), so the
 * TOS byte never reaches Java. This mode therefore sees no CE marks and sends no CNPs. Integrity on
 * the way: the UDP checksum (which the kernel checks) and the ICRC.
 *
 * <p>Threading: the owner thread is the event loop the port is opened on (epoll or NIO, see
 * {@link UdpTransport}); every socket of the port is registered there, and the NIC should use a
 * scheduler on the same loop, so no packet changes threads. The link is up from bind to
 * {@link #close()}.
 */
public final class UdpEndpointPort extends AbstractFramePort implements UdpPayloadSink, AutoCloseable {

    /** Default largest UDP payload accepted: what a 9000-byte IP MTU carries. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 9000 - 28;

    /** Receive buffer with GRO: a coalesced read can be as long as an IPv4 datagram. */
    private static final int GRO_SLOT_BYTES = 65_536;
    private static final int PLAIN_SLOTS = 32;
    /** Free rebuilt frames a port keeps (the NIC frees them on the port's loop, mostly at once). */
    private static final int POOLED_FRAMES = 1024;
    /** Reads per wake-up of the receive socket: Netty reads up to this many times and only then hands
     *  the datagrams to the pipeline, so as many read buffers are in use at once. */
    static final int READS_PER_WAKE = 64;
    /** Free read buffers a port keeps, and as many free GSO buffers: a wake-up's reads, and the GSO
     *  buffers of a flush (they wait only while a socket's send buffer is full). Fewer, and a busy
     *  port would free and create 64 KB buffers on every wake-up. */
    private static final int POOLED_BURSTS = READS_PER_WAKE + 32;
    private static final long BIND_TIMEOUT_SECONDS = 10;

    private final EventLoop loop;
    private final UdpTransport transport;
    private final long nicMac;
    private final int localIp;
    private final int maxPayloadBytes;
    /** Where rebuilt frames (and ARP replies) come from. */
    private final ByteBufAllocator alloc;
    /** Where GSO buffers come from: each is a whole burst of datagrams. */
    private final ByteBufAllocator bursts;
    /** Where socket reads go (a GRO read is a burst too). */
    private final ByteBufAllocator reads;
    private final CounterSet<UdpEndpointCounter> counters = new CounterSet<>(UdpEndpointCounter.class);
    private final DatagramChannel receiveChannel;
    private final SourcePortSockets sockets;
    private final SendBatch batch;
    private final boolean gro;
    private final Runnable flushTask = this::flushBatch;
    private volatile boolean closed;

    private UdpEndpointPort(Builder b, EventLoop loop) {
        super(b.name, true);
        this.loop = loop;
        this.transport = UdpTransport.of(loop);
        this.nicMac = b.nicMac;
        this.localIp = toInt(b.localAddress);
        this.maxPayloadBytes = b.maxPayloadBytes;
        final boolean offload = transport.segmentationOffload();
        this.gro = offload && b.gro;
        // Netty's general pool keeps buffers above 32 KB in no thread cache: every 64 KB read buffer
        // and GSO buffer took its arena's lock and chunk search (about 9 % of a receiving loop in
        // ib_write_bw over veth). Both kinds are freed on this loop, so a per-port free list serves.
        this.alloc = b.alloc != null ? b.alloc
            : new FramePoolAllocator(DatagramFrames.HEADERS + maxPayloadBytes, POOLED_FRAMES);
        this.bursts = b.alloc != null ? b.alloc : new FramePoolAllocator(readBufferBytes(), POOLED_BURSTS);
        this.reads = b.alloc != null ? b.alloc : new ReadBuffers(readBufferBytes(), POOLED_BURSTS);
        final ChannelHandler txErrors = new TxErrorCounter();
        this.sockets = new SourcePortSockets(loop, transport, b.localAddress, alloc, b.socketBufferBytes, txErrors);
        this.batch = new SendBatch(sockets, bursts, counters, offload && b.gso);
        this.receiveChannel = bindReceiver(b);
    }

    /** The size of one read: a GRO read (up to an IPv4 datagram), or recvmmsg's slots. */
    private int readBufferBytes() {
        return gro ? GRO_SLOT_BYTES : plainSlotBytes() * plainSlots();
    }

    /** One byte more than the largest payload: a longer datagram is cut to exactly that, which is how
     *  it is recognised as oversized. */
    private int plainSlotBytes() {
        return maxPayloadBytes + 1;
    }

    private int plainSlots() {
        return transport == UdpTransport.EPOLL ? PLAIN_SLOTS : 1;
    }

    private DatagramChannel bindReceiver(Builder b) {
        final DatagramChannel ch = transport.newChannel();
        // with GRO, one recvmsg per read: Netty passes a control buffer, and so learns the GRO segment
        // size, only to recvmsg, not to recvmmsg; one GRO read returns up to 64 KB of datagrams anyway
        final int slot = gro ? GRO_SLOT_BYTES : plainSlotBytes();
        ch.config().setOption(ChannelOption.ALLOCATOR, reads);
        ch.config().setOption(ChannelOption.SO_RCVBUF, b.socketBufferBytes);
        ch.config().setOption(ChannelOption.RCVBUF_ALLOCATOR,
            new FixedRecvByteBufAllocator(readBufferBytes()).maxMessagesPerRead(READS_PER_WAKE));
        if (transport == UdpTransport.EPOLL) {
            // recvmmsg: the read buffer is cut into slots of this size, one datagram each
            ch.config().setOption(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, gro ? 0 : slot);
            if (gro) {
                ch.config().setOption(EpollChannelOption.UDP_GRO, true);
            }
        }
        ch.pipeline().addLast(new Receiver());
        final InetSocketAddress local = new InetSocketAddress(b.localAddress, b.roceUdpPort);
        final ChannelFuture registered = loop.register(ch);
        if (!registered.awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS) || !registered.isSuccess()) {
            ch.close();
            throw new IllegalStateException("cannot register a UDP socket on " + loop, registered.cause());
        }
        final ChannelFuture bound = ch.bind(local);
        if (!bound.awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            ch.close();
            throw new IllegalStateException("binding UDP " + local + " timed out");
        }
        if (!bound.isSuccess()) {
            ch.close();
            final Throwable cause = bound.cause();
            throw cause instanceof IOException io
                ? new UncheckedIOException("cannot bind UDP " + local + " (is it an address of this host, and free?)",
                io)
                : new IllegalStateException("cannot bind UDP " + local, cause);
        }
        return ch;
    }

    /**
     * @return a builder; {@link Builder#localAddress} is required
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void send(ByteBuf frame) {
        if (!loop.inEventLoop()) {
            try {
                loop.execute(() -> send(frame));
            } catch (RejectedExecutionException e) {
                drop(frame, UdpEndpointCounter.TX_DROPPED_CLOSED);
            }
            return;
        }
        if (closed) {
            drop(frame, UdpEndpointCounter.TX_DROPPED_CLOSED);
            return;
        }
        if (ArpAnswers.isRequest(frame)) {
            answerArp(frame);
            return;
        }
        final UdpEndpointCounter reject = DatagramFrames.rejectReason(frame, localIp);
        if (reject != null) {
            drop(frame, reject);
            return;
        }
        final int srcPort = DatagramFrames.srcPort(frame);
        final int dstIp = DatagramFrames.dstIp(frame);
        final int payloadLength = DatagramFrames.payloadLength(frame);
        frame.skipBytes(DatagramFrames.HEADERS);
        frame.writerIndex(frame.readerIndex() + payloadLength);
        if (payloadLength > maxPayloadBytes) {
            drop(frame, UdpEndpointCounter.TX_DROPPED_OVERSIZED);
            return;
        }
        if (batch.add(srcPort, dstIp, frame)) {
            // after the work the loop is doing now (a burst of received packets, a posted WR): all
            // the frames it produces leave together
            loop.execute(flushTask);
        }
    }

    @Override
    public ByteBuf claim(int srcIp, int srcPort, int dstIp, int ipId, int length) {
        if (closed || !batch.gso() || srcIp != localIp || ipId != DatagramFrames.IP_ID
            || length < DatagramFrames.MIN_PAYLOAD
            || length > maxPayloadBytes || !loop.inEventLoop()) {
            return null;
        }
        final boolean wasEmpty = batch.isEmpty();
        final ByteBuf b = batch.claim(srcPort, dstIp, length);
        if (wasEmpty) {
            loop.execute(flushTask); // as in send: after the work the loop is doing now
        }
        return b;
    }

    @Override
    public void commit() {
        batch.commit();
        counters.increment(UdpEndpointCounter.PACKETS_WRITTEN_IN_PLACE);
    }

    @Override
    public void abort() {
        batch.abort();
    }

    private void flushBatch() {
        if (closed) {
            batch.discard(UdpEndpointCounter.TX_DROPPED_CLOSED);
            return;
        }
        try {
            batch.flush();
        } catch (RuntimeException e) {
            // never thrown through the data path (docs/design.md §3): whatever was not written is counted,
            // and the batch is empty again, so the next frame schedules a flush of its own
            counters.increment(UdpEndpointCounter.TX_ERRORS);
            batch.discard(UdpEndpointCounter.TX_ERRORS);
        }
    }

    /** Answers later on the owner loop: a port never calls its receiver from inside send. */
    private void answerArp(ByteBuf request) {
        final ByteBuf reply;
        try {
            reply = ArpAnswers.reply(alloc, request);
        } finally {
            request.release();
        }
        counters.increment(UdpEndpointCounter.ARP_ANSWERED);
        loop.execute(() -> deliver(reply));
    }

    private void deliver(ByteBuf frame) {
        final FrameReceiver receiver = receiver();
        if (receiver == null || closed) {
            drop(frame, UdpEndpointCounter.RX_DROPPED_NO_RECEIVER);
            return;
        }
        receiver.onFrame(this, frame);
    }

    private void drop(ByteBuf frame, UdpEndpointCounter reason) {
        frame.release();
        counters.increment(reason);
    }

    /**
     * @return the local address datagrams are received on (port 4791 unless a test chose another)
     */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) receiveChannel.localAddress();
    }

    /**
     * @return the MAC the NIC on this port must have (received frames are addressed to it)
     */
    public long nicMac() {
        return nicMac;
    }

    /**
     * @return the socket layer in use
     */
    public UdpTransport transport() {
        return transport;
    }

    /**
     * @return whether equal-sized packets are sent as GSO buffers (off with NIO, without kernel
     *         support, when turned off, or after the kernel refused one)
     */
    public boolean gsoActive() {
        return batch.gso();
    }

    /**
     * @return whether the receive socket asked the kernel for coalesced (GRO) reads
     */
    public boolean groActive() {
        return gro;
    }

    /**
     * @return the SO_RCVBUF the kernel granted to the receive socket
     */
    public int receiveBufferBytes() {
        return receiveChannel.config().getReceiveBufferSize();
    }

    /**
     * @return how many buffers the port's own free lists have ever created (rebuilt frames, read and
     *         GSO buffers; the rest of its allocations reused one), or -1 if the builder was given an
     *         allocator
     */
    long buffersCreated() {
        return alloc instanceof FramePoolAllocator frames && bursts instanceof FramePoolAllocator gso
            && reads instanceof ReadBuffers readBuffers
            ? frames.framesCreated() + gso.framesCreated() + readBuffers.created() : -1;
    }

    /**
     * @return this port's counters, readable from any thread
     */
    public CounterSet<UdpEndpointCounter> counters() {
        return counters;
    }

    /**
     * @return the event loop that owns this port
     */
    public EventLoop eventLoop() {
        return loop;
    }

    /**
     * @return one line for logs: transport, address and offloads
     */
    public String describe() {
        return "UDP endpoint " + localAddress().getAddress().getHostAddress() + ":" + localAddress().getPort() + " ("
            + (transport == UdpTransport.EPOLL ? "epoll" : "NIO") + (batch.gso() ? ", GSO" : "") + (gro ? ", GRO" : "")
            + ")";
    }

    /**
     * Closes every socket (waiting a few seconds at most); the link goes down and listeners are told.
     * Frames still waiting to be sent are released.
     */
    @Override
    public void close() {
        closed = true;
        final Runnable shut = () -> {
            batch.discard(UdpEndpointCounter.TX_DROPPED_CLOSED);
            sockets.closeAll();
        };
        if (loop.inEventLoop()) {
            shut.run();
        } else {
            try {
                loop.submit(shut).awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (RejectedExecutionException e) {
                // the loop is gone, and its channels with it
            }
        }
        receiveChannel.close().awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "UdpEndpointPort[" + name() + ", " + receiveChannel.localAddress() + (isUp() ? "" : ", down") + "]";
    }

    private static int toInt(InetAddress a) {
        final byte[] b = a.getAddress();
        return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | b[3] & 0xFF;
    }

    /** Reads datagrams on the owner loop; never throws a bad datagram up the pipeline. */
    private final class Receiver extends ChannelInboundHandlerAdapter {
        private final LastAddress senders = new LastAddress();
        private final LastAddress recipients = new LastAddress();
        private final InPlaceFrames inPlace = new InPlaceFrames();
        private final HeaderTemplate headers = new HeaderTemplate(nicMac, ArpAnswers.GATEWAY_MAC);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            try {
                receive(packet);
            } finally {
                packet.release();
            }
        }

        private void receive(DatagramPacket packet) {
            final ByteBuf payload = packet.content();
            final int length = payload.readableBytes();
            final InetSocketAddress sender = packet.sender();
            if (sender == null || !(sender.getAddress() instanceof Inet4Address)) {
                counters.increment(UdpEndpointCounter.RX_DROPPED_NOT_IPV4);
                return;
            }
            if (length < DatagramFrames.MIN_PAYLOAD) {
                counters.increment(UdpEndpointCounter.RX_DROPPED_RUNT);
                return;
            }
            if (length > maxPayloadBytes) {
                counters.increment(UdpEndpointCounter.RX_DROPPED_OVERSIZED);
                return;
            }
            final FrameReceiver receiver = receiver();
            if (receiver == null || closed) {
                counters.increment(UdpEndpointCounter.RX_DROPPED_NO_RECEIVER);
                return;
            }
            final InetSocketAddress recipient = packet.recipient();
            final int dstIp = recipient != null && recipient.getAddress() instanceof Inet4Address
                ? recipients.toInt(recipient.getAddress()) : localIp;
            final int dstPort = recipient != null ? recipient.getPort() : Udp.ROCEV2_PORT;
            final int srcIp = senders.toInt(sender.getAddress());
            ByteBuf frame = inPlace.frame(payload);
            if (frame != null) {
                counters.increment(UdpEndpointCounter.PACKETS_RECEIVED_IN_PLACE);
            } else {
                frame = DatagramFrames.copyBehindHeaders(alloc, payload);
            }
            headers.write(frame, srcIp, sender.getPort(), dstIp, dstPort, length);
            counters.increment(UdpEndpointCounter.PACKETS_RECEIVED);
            counters.add(UdpEndpointCounter.BYTES_RECEIVED, length);
            try {
                receiver.onFrame(UdpEndpointPort.this, frame);
            } finally {
                inPlace.returned();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            counters.increment(UdpEndpointCounter.RX_ERRORS);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            updateLinkState(false);
            ctx.fireChannelInactive();
        }
    }

    /**
     * The last IPv4 address converted and its value: the datagrams of one GRO read share their
     * address objects, and {@code getAddress()} copies the four bytes on every call (3-4 % of a
     * receiving loop when done per datagram).
     */
    private static final class LastAddress {
        private InetAddress last;
        private int value;

        int toInt(InetAddress a) {
            if (a != last) {
                value = UdpEndpointPort.toInt(a);
                last = a;
            }
            return value;
        }
    }

    /** Counts failed writes of the send sockets (they reach the pipeline through void promises). */
    @ChannelHandler.Sharable
    private final class TxErrorCounter extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            counters.increment(UdpEndpointCounter.TX_ERRORS);
        }
    }

    /** Configures and opens a {@link UdpEndpointPort}. */
    public static final class Builder {
        private String name = "udp-endpoint";
        private InetAddress localAddress;
        private int roceUdpPort = Udp.ROCEV2_PORT;
        private long nicMac = 0x0252_5400_0001L;
        private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
        private int socketBufferBytes = 4 << 20;
        private boolean gso = true;
        private boolean gro = true;
        /** null: the port's own free lists (see the constructor). */
        private ByteBufAllocator alloc;

        private Builder() {
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
         * @param address the IPv4 address of this host the NIC uses (its GID's address): datagrams are
         *                received on it, port 4791, and sent from it
         * @return this
         */
        public Builder localAddress(InetAddress address) {
            Objects.requireNonNull(address, "address");
            if (!(address instanceof Inet4Address) || address.isAnyLocalAddress() || address.isMulticastAddress()) {
                throw new IllegalArgumentException("localAddress must be a unicast IPv4 address of this host: "
                    + address.getHostAddress());
            }
            this.localAddress = address;
            return this;
        }

        /**
         * @param port the UDP port to receive on; 4791 (the default) for anything that talks to a peer,
         *             since peers always send to 4791; 0 (ephemeral) only for tests of the port itself
         * @return this
         */
        public Builder receivePort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
            }
            this.roceUdpPort = port;
            return this;
        }

        /**
         * @param mac the MAC of the NIC on this port (received frames are addressed to it)
         * @return this
         */
        public Builder nicMac(long mac) {
            this.nicMac = mac;
            return this;
        }

        /**
         * @param bytes largest UDP payload sent or accepted, at least 16 and at most 65507
         * @return this
         */
        public Builder maxPayloadBytes(int bytes) {
            if (bytes < DatagramFrames.MIN_PAYLOAD || bytes > 65_507) {
                throw new IllegalArgumentException("maxPayloadBytes must be in [16, 65507]: " + bytes);
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * @param bytes requested SO_RCVBUF and SO_SNDBUF (the kernel caps them at
         *              {@code net.core.rmem_max} / {@code wmem_max}); default 4 MiB
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
         * @param on whether to send runs of equal-sized packets as one GSO buffer where the kernel
         *           can (default on)
         * @return this
         */
        public Builder gso(boolean on) {
            this.gso = on;
            return this;
        }

        /**
         * @param on whether to ask the kernel for coalesced reads (UDP_GRO) where it can (default on)
         * @return this
         */
        public Builder gro(boolean on) {
            this.gro = on;
            return this;
        }

        /**
         * @param allocator where rebuilt frames, read buffers and GSO buffers come from (default: the
         *                  port's own free lists of frames and of 64 KB buffers)
         * @return this
         */
        public Builder allocator(ByteBufAllocator allocator) {
            this.alloc = Objects.requireNonNull(allocator, "allocator");
            return this;
        }

        /**
         * Binds the receive socket on {@code loop} and waits (a few seconds at most) for the bind.
         *
         * @param loop an epoll or NIO event loop ({@link UdpTransport#newLoopGroup}); the NIC's
         *             scheduler should run on it too
         * @return the open port
         * @throws UncheckedIOException if the address cannot be bound (not an address of this host,
         *                              or port 4791 taken there)
         */
        public UdpEndpointPort open(EventLoop loop) {
            if (localAddress == null) {
                throw new IllegalStateException("localAddress is required");
            }
            return new UdpEndpointPort(this, Objects.requireNonNull(loop, "loop"));
        }
    }
}
