package io.rocelab.fabric.endpoint;

import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The socket layer under a {@link UdpEndpointPort}: Linux epoll (recvmmsg, sendmmsg, UDP GSO and
 * GRO where the kernel has them) or, where the native library cannot load, Java NIO (one datagram
 * per system call, no segmentation offload: it works, slower).
 */
public enum UdpTransport {
    /** Netty's native epoll transport. */
    EPOLL,
    /** Java NIO: the portable fallback. */
    NIO;

    /**
     * @return {@link #EPOLL} where its native library loads, else {@link #NIO}
     */
    public static UdpTransport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /**
     * @param loop an event loop of a {@code MultiThreadIoEventLoopGroup}
     * @return the transport whose channels that loop serves
     * @throws IllegalArgumentException if it serves neither
     */
    public static UdpTransport of(EventLoop loop) {
        if (loop instanceof IoEventLoop io) {
            if (io.isIoType(EpollIoHandler.class)) {
                return EPOLL;
            }
            if (io.isIoType(NioIoHandler.class)) {
                return NIO;
            }
        }
        throw new IllegalArgumentException("loop must be an epoll or NIO IoEventLoop: " + loop);
    }

    /**
     * @return why epoll cannot be used here, or {@code null} if it can
     */
    public static String epollUnavailableReason() {
        final Throwable cause = Epoll.unavailabilityCause();
        return cause == null ? null : String.valueOf(cause.getMessage() == null ? cause : cause.getMessage());
    }

    /**
     * @return whether this transport can send one buffer as many datagrams of one size (UDP_SEGMENT,
     *         Linux 4.18) and receive coalesced ones (UDP_GRO, Linux 5.0)
     */
    public boolean segmentationOffload() {
        return this == EPOLL && EpollDatagramChannel.isSegmentedDatagramPacketSupported();
    }

    /**
     * @return the handler factory of event loops that can serve this transport's channels
     */
    public IoHandlerFactory ioHandlerFactory() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /**
     * Starts one event loop thread for this transport: the owner thread of a NIC and its port.
     *
     * @param threadName the thread's name
     * @return a group of one loop; the caller shuts it down
     */
    public MultiThreadIoEventLoopGroup newLoopGroup(String threadName) {
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(threadName, true), ioHandlerFactory());
    }

    /**
     * The same, with an epoll loop that keeps polling for {@code spinNanos} after its last work
     * before it blocks ({@link SpinThenBlock}); a NIO loop blocks at once, as with
     * {@link #newLoopGroup(String)}.
     *
     * @param threadName the thread's name
     * @param spinNanos  how long to poll after the last work, &gt;= 0
     * @return a group of one loop; the caller shuts it down
     */
    public MultiThreadIoEventLoopGroup newLoopGroup(String threadName, long spinNanos) {
        final IoHandlerFactory handlers = this == EPOLL
            ? EpollIoHandler.newFactory(0, SpinThenBlock.factory(spinNanos)) : ioHandlerFactory();
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(threadName, true), handlers);
    }

    /**
     * @return the class of this transport's datagram channels (a bootstrap's {@code channel(...)})
     */
    public Class<? extends DatagramChannel> datagramChannelClass() {
        return this == EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    /**
     * @return a new unregistered datagram channel of this transport, IPv4
     */
    DatagramChannel newChannel() {
        return this == EPOLL ? new EpollDatagramChannel(io.netty.channel.socket.SocketProtocolFamily.INET)
            : new NioDatagramChannel(io.netty.channel.socket.SocketProtocolFamily.INET);
    }
}
