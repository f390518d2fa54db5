package io.rocelab.fabric.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.ReferenceCountUtil;
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
 * as they are (qemu's virtio NICs do not pad).
 *
 * <p>Threading: the port's owner thread is its channel's NIO event loop; the receiver and link-state
 * listeners run there. Attach the NIC or switch to a {@link RealTimeScheduler} on the same loop
 * ({@link Builder#open(RealTimeScheduler)}) and no frame changes threads. The link is up from bind
 * to {@link #close()}.
 */
public final class UdpFramePort extends AbstractFramePort implements AutoCloseable {

    /** Default largest frame, without FCS: 9216 bytes, a common jumbo-frame limit. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 9216;

    /** Shorter datagrams cannot hold an Ethernet header (destination, source, EtherType). */
    public static final int MIN_FRAME_BYTES = 14;

    private static final long BIND_TIMEOUT_SECONDS = 10;

    private final EventLoop loop;
    private final int maxFrameBytes;
    private final CounterSet<UdpPortCounter> counters = new CounterSet<>(UdpPortCounter.class);
    private final Channel channel;
    private volatile InetSocketAddress remoteAddress;

    private UdpFramePort(Builder b, EventLoop loop) {
        super(b.name, true);
        this.loop = loop;
        this.maxFrameBytes = b.maxFrameBytes;
        this.remoteAddress = b.remoteAddress;
        final ChannelFuture bind = new Bootstrap()
            .group(loop)
            .channel(NioDatagramChannel.class)
            // one byte more than the largest frame: a longer datagram is truncated by the kernel to
            // exactly maxFrameBytes + 1 bytes, which is how it is recognised as oversized
            .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(maxFrameBytes + 1))
            .option(ChannelOption.SO_RCVBUF, b.socketBufferBytes)
            .option(ChannelOption.SO_SNDBUF, b.socketBufferBytes)
            .handler(new Handler())
            .bind(b.localAddress);
        if (!bind.awaitUninterruptibly(BIND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            bind.cancel(false);
            bind.channel().close();
            throw new IllegalStateException("binding " + b.localAddress + " timed out");
        }
        if (!bind.isSuccess()) {
            bind.channel().close();
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
        if (loop.inEventLoop()) {
            write(frame);
            return;
        }
        try {
            loop.execute(() -> write(frame));
        } catch (RejectedExecutionException e) {
            frame.release();
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
    }

    @Override
    public String toString() {
        return "UdpFramePort[" + name() + ", " + channel.localAddress() + " -> " + remoteAddress
            + (isUp() ? "" : ", down") + "]";
    }

    /** On the event loop. */
    private void write(ByteBuf frame) {
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
            // a failed write reaches exceptionCaught through the void promise and is counted there
            channel.writeAndFlush(new DatagramPacket(frame, remote), channel.voidPromise());
        }
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
            final ByteBuf frame = ((DatagramPacket) msg).content();
            final int length = frame.readableBytes();
            if (length < MIN_FRAME_BYTES) {
                drop(frame, UdpPortCounter.RX_DROPPED_RUNT);
                return;
            }
            if (length > maxFrameBytes) {
                drop(frame, UdpPortCounter.RX_DROPPED_OVERSIZED);
                return;
            }
            final FrameReceiver receiver = receiver();
            if (receiver == null) {
                drop(frame, UdpPortCounter.RX_DROPPED_NO_RECEIVER);
                return;
            }
            counters.increment(UdpPortCounter.FRAMES_RECEIVED);
            counters.add(UdpPortCounter.BYTES_RECEIVED, length);
            receiver.onFrame(UdpFramePort.this, frame);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            counters.increment(UdpPortCounter.ERRORS);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            updateLinkState(false);
            ctx.fireChannelInactive();
        }
    }

    /** Configures and opens a {@link UdpFramePort}. */
    public static final class Builder {
        private String name = "udp";
        private InetSocketAddress localAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        private InetSocketAddress remoteAddress;
        private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
        private int socketBufferBytes = 4 << 20;

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
         * Binds the port on an NIO event loop and waits (a few seconds at most) for the bind.
         *
         * @param loop an event loop of a {@code MultiThreadIoEventLoopGroup} with {@code NioIoHandler}
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
