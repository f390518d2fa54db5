package io.rocelab.sw.sflow;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.rocelab.sw.config.SflowConfig;
import io.rocelab.sw.config.SflowTables;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The datagrams to the collectors over UDP, from a socket of the host the switch runs on (real time:
 * {@code rocelab switch}, live and netns labs). One Netty datagram channel on its own event loop
 * thread, bound to the wildcard address and a port the kernel picks: the switch's owner thread only
 * hands it the bytes ({@code writeAndFlush} from another thread queues a task to the channel's
 * loop), so the data plane does no I/O. The kernel routes the datagram by the host's table in the
 * namespace the process runs in: {@code collector_vrf} (default or mgmt) picks nothing here.
 * A send that fails is counted, never thrown.
 */
public final class UdpSflowSink implements SflowSink, AutoCloseable {
    private final EventLoopGroup group;
    private final Channel channel;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /** Opens the socket. @throws InterruptedException if interrupted while binding */
    public UdpSflowSink() throws InterruptedException {
        group = new NioEventLoopGroup(1, r -> {
            Thread t = new Thread(r, "sflow-udp");
            t.setDaemon(true);
            return t;
        });
        try {
            channel = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new ChannelInboundHandlerAdapter()).bind(0).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    @Override
    public void send(SflowConfig.Collector collector, byte[] datagram, long nowNanos) {
        InetSocketAddress to = new InetSocketAddress(SflowTables.address(collector.ip()), collector.port());
        channel.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(datagram), to))
            .addListener((ChannelFutureListener) f -> (f.isSuccess() ? sent : failed).incrementAndGet());
    }

    /** @return datagrams the socket sent */
    public long sent() {
        return sent.get();
    }

    /** @return datagrams the socket could not send */
    public long failed() {
        return failed.get();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
