package io.rocelab.bench.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.SegmentedDatagramPacket;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.util.ReferenceCountUtil;
import io.rocelab.fabric.endpoint.UdpTransport;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The floor of the UDP endpoint benchmark (docs/design.md §9): a plain Netty epoll UDP blaster with the
 * same datagram size as rocelab's RoCE packets, on the same path, and nothing else. The sender
 * writes GSO buffers of {@value #SEGMENTS} equal datagrams (UDP_SEGMENT) as fast as the socket takes
 * them; the receiver reads with UDP_GRO (coalesced reads of up to 64 KB) and counts the payload
 * bytes of every datagram, from the first one to the last. No protocol, no copies, no CRC: what
 * the kernel path and Netty cost per byte, which any UDP endpoint mode must also pay.
 *
 * <p>With FIRST_BYTES, every GSO buffer follows one datagram of that size on its own: the datagrams
 * of a 64 KB RDMA WRITE at MTU 4096 (a 4128-byte WRITE FIRST, then 14 MIDDLEs and the LAST of 4112
 * bytes). The FIRST carries the RETH, 16 bytes more than the packets after it, while IBA fixes
 * every FIRST and MIDDLE payload at the path MTU (9.7.2, C9-20): so it can never share a GSO
 * buffer (equal segments, a shorter last one) with them, and every message costs two sends and two
 * reads, which a RoCE endpoint on UDP sockets cannot avoid either.
 *
 * <pre>
 *   UdpBlasterFloor receive LOCAL_IP PORT MAX_SECONDS
 *   UdpBlasterFloor send LOCAL_IP DEST_IP PORT SECONDS DATAGRAM_BYTES [FIRST_BYTES]
 * </pre>
 *
 * The receiver prints one line {@code floor-rx: <Gb/s> Gb/s <kpps> kpps <datagrams> datagrams in
 * <seconds> s}; it stops one second after the last datagram, or after MAX_SECONDS.
 */
public final class UdpBlasterFloor {
    /** Datagrams per GSO buffer: 15 x 4112 B fits one 64 KB IPv4 datagram. */
    static final int SEGMENTS = 15;

    private UdpBlasterFloor() {
    }

    public static void main(String[] args) throws Exception {
        if (UdpTransport.best() != UdpTransport.EPOLL || !UdpTransport.EPOLL.segmentationOffload()) {
            System.err.println("floor needs epoll with UDP GSO/GRO: " + UdpTransport.epollUnavailableReason());
            System.exit(2);
        }
        if (args.length == 4 && "receive".equals(args[0])) {
            receive(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else if ((args.length == 6 || args.length == 7) && "send".equals(args[0])) {
            send(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4]), Integer.parseInt(args[5]),
                args.length == 7 ? Integer.parseInt(args[6]) : 0);
        } else {
            System.err.println("usage: UdpBlasterFloor receive LOCAL_IP PORT MAX_SECONDS"
                + " | send LOCAL_IP DEST_IP PORT SECONDS DATAGRAM_BYTES [FIRST_BYTES]");
            System.exit(2);
        }
    }

    private static void receive(String localIp, int port, int maxSeconds) throws Exception {
        MultiThreadIoEventLoopGroup group = UdpTransport.EPOLL.newLoopGroup("floor-rx");
        try {
            Counter counter = new Counter();
            EpollDatagramChannel ch = new EpollDatagramChannel(SocketProtocolFamily.INET);
            ch.config().setOption(ChannelOption.SO_RCVBUF, 4 << 20);
            ch.config().setOption(EpollChannelOption.UDP_GRO, true);
            ch.config().setOption(ChannelOption.RCVBUF_ALLOCATOR,
                new FixedRecvByteBufAllocator(65_536).maxMessagesPerRead(64));
            ch.pipeline().addLast(counter);
            group.next().register(ch).sync();
            ch.bind(new InetSocketAddress(localIp, port)).sync();
            System.err.println("floor-rx: listening on " + localIp + ":" + port);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
            while (System.nanoTime() < deadline) {
                Thread.sleep(100);
                long last = counter.last;
                if (last != 0 && System.nanoTime() - last > 1_000_000_000L) {
                    break;
                }
            }
            ch.close().sync();
            double seconds = (counter.last - counter.first) / 1e9;
            System.out.printf(Locale.ROOT, "floor-rx: %.2f Gb/s %.0f kpps %d datagrams in %.2f s%n",
                seconds > 0 ? counter.bytes * 8 / seconds / 1e9 : 0.0,
                seconds > 0 ? counter.datagrams / seconds / 1e3 : 0.0, counter.datagrams, seconds);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
    }

    /** Counts on the loop thread; the main thread reads the volatile time stamps. */
    private static final class Counter extends ChannelInboundHandlerAdapter {
        volatile long first;
        volatile long last;
        volatile long bytes;
        volatile long datagrams;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof DatagramPacket p) {
                    long now = System.nanoTime();
                    if (first == 0) {
                        first = now;
                    } else {
                        // the first datagram opens the window: its bytes arrived before it
                        bytes += p.content().readableBytes();
                        datagrams++;
                    }
                    last = now;
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    private static void send(String localIp, String destIp, int port, int seconds, int datagramBytes, int firstBytes)
        throws Exception {
        MultiThreadIoEventLoopGroup group = UdpTransport.EPOLL.newLoopGroup("floor-tx");
        ByteBuf burst = PooledByteBufAllocator.DEFAULT.directBuffer(SEGMENTS * datagramBytes);
        ByteBuf first = firstBytes > 0 ? PooledByteBufAllocator.DEFAULT.directBuffer(firstBytes) : null;
        try {
            for (int i = 0; i < SEGMENTS * datagramBytes; i++) {
                burst.writeByte(i);
            }
            for (int i = 0; i < firstBytes; i++) {
                first.writeByte(i);
            }
            EpollDatagramChannel ch = new EpollDatagramChannel(SocketProtocolFamily.INET);
            ch.config().setOption(ChannelOption.SO_SNDBUF, 4 << 20);
            ch.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1 << 20, 2 << 20));
            InetSocketAddress dest = new InetSocketAddress(destIp, port);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            CountDownLatch done = new CountDownLatch(1);
            Pump pump = new Pump(ch, first, burst, datagramBytes, dest, end, done);
            ch.pipeline().addLast(pump);
            EventLoop loop = group.next();
            loop.register(ch).sync();
            ch.bind(new InetSocketAddress(localIp, 0)).sync();
            loop.execute(pump::fill);
            done.await(seconds + 10L, TimeUnit.SECONDS);
            System.err.printf(Locale.ROOT, "floor-tx: %d GSO writes of %d x %d B%s%n", pump.writes, SEGMENTS,
                datagramBytes, first != null ? ", each after a datagram of " + firstBytes + " B" : "");
            ch.close().sync();
        } finally {
            burst.release();
            if (first != null) {
                first.release();
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
    }

    /** Keeps the socket's outbound buffer between its water marks until the time is up. */
    static final class Pump extends ChannelInboundHandlerAdapter {
        private final Channel ch;
        /** The datagram sent before each GSO buffer, or null. */
        private final ByteBuf first;
        private final ByteBuf burst;
        private final int segment;
        private final InetSocketAddress dest;
        private final long end;
        private final CountDownLatch done;
        volatile long writes;

        Pump(Channel ch, ByteBuf first, ByteBuf burst, int segment, InetSocketAddress dest, long end,
            CountDownLatch done) {
            this.ch = ch;
            this.first = first;
            this.burst = burst;
            this.segment = segment;
            this.dest = dest;
            this.end = end;
            this.done = done;
        }

        void fill() {
            if (System.nanoTime() > end) {
                done.countDown();
                return;
            }
            long n = 0;
            while (ch.isWritable() && n < 64) {
                if (first != null) {
                    ch.write(new DatagramPacket(first.retainedDuplicate(), dest), ch.voidPromise());
                }
                ch.write(new SegmentedDatagramPacket(burst.retainedDuplicate(), segment, dest), ch.voidPromise());
                n++;
            }
            writes += n;
            ch.flush();
            if (ch.isWritable()) {
                ch.eventLoop().execute(this::fill);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ch.isWritable()) {
                fill();
            }
            ctx.fireChannelWritabilityChanged();
        }
    }
}
