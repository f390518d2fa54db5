package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramChannel;
import org.agrona.collections.Int2ObjectHashMap;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One send socket per UDP source port, bound to the port's local address and that source port,
 * created the first time a frame with that source port leaves.
 *
 * <p>Why one socket per port rather than one socket whose port the ICRC is recomputed for: RoCEv2
 * gives each QP its own source port in 0xC000–0xFFFF (the NIC's choice, constant for the QP's life)
 * so that ECMP routers hash each QP onto one path and spread QPs over paths; one shared socket
 * would put every QP of the host on one 5-tuple and one path. Sending from the QP's own port also
 * keeps the ICRC the NIC computed valid unchanged (it covers the UDP source port, A17.4.1), so the
 * payload leaves without a second CRC pass over it.
 *
 * <p>No SO_REUSEPORT: a second socket on the same address and port would be a second sender
 * claiming the same QP's port; the bind fails instead and the frames are counted
 * ({@link UdpEndpointCounter#TX_DROPPED_SOURCE_PORT_BUSY}). Such a clash comes from another program
 * holding that port (Linux hands out ephemeral ports from 32768–60999, which overlaps the RoCE
 * range), never from two QPs of one NIC, which get distinct ports. Owner thread only.
 */
final class SourcePortSockets {
    private final EventLoop loop;
    private final UdpTransport transport;
    private final InetAddress localAddress;
    private final ByteBufAllocator alloc;
    private final int sendBufferBytes;
    private final ChannelHandler errorCounter;
    private final Int2ObjectHashMap<DatagramChannel> byPort = new Int2ObjectHashMap<>();
    private final List<DatagramChannel> all = new ArrayList<>();

    SourcePortSockets(EventLoop loop, UdpTransport transport, InetAddress localAddress, ByteBufAllocator alloc,
                      int sendBufferBytes, ChannelHandler errorCounter) {
        this.loop = loop;
        this.transport = transport;
        this.localAddress = localAddress;
        this.alloc = alloc;
        this.sendBufferBytes = sendBufferBytes;
        this.errorCounter = errorCounter;
    }

    /**
     * The socket bound to {@code srcPort}, opened now if needed.
     *
     * @return the socket, or {@code null} if the port cannot be bound
     */
    DatagramChannel get(int srcPort) {
        DatagramChannel ch = byPort.get(srcPort);
        if (ch != null && ch.isActive()) {
            return ch;
        }
        ch = open(srcPort);
        if (ch != null) {
            byPort.put(srcPort, ch);
            all.add(ch);
        }
        return ch;
    }

    /**
     * On the owner loop, registration and bind complete before they return (Netty runs them inline
     * when called on the channel's own loop), so the first write already leaves from the right
     * port; a write on an unbound socket would make the kernel pick an ephemeral port instead.
     */
    private DatagramChannel open(int srcPort) {
        final DatagramChannel ch = transport.newChannel();
        ch.config().setOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
        ch.config().setOption(ChannelOption.ALLOCATOR, alloc);
        // nothing is sent to a source port (peers answer on 4791): never read it
        ch.config().setAutoRead(false);
        ch.pipeline().addLast(errorCounter);
        final ChannelFuture registered = loop.register(ch);
        if (!registered.isDone() || !registered.isSuccess()) {
            ch.close();
            return null;
        }
        final ChannelFuture bound = ch.bind(new InetSocketAddress(localAddress, srcPort));
        if (!bound.isDone() || !bound.isSuccess()) {
            ch.close();
            return null;
        }
        return ch;
    }

    /** The number of send sockets open. */
    int size() {
        return all.size();
    }

    /** Closes every socket. */
    void closeAll() {
        for (DatagramChannel ch : all) {
            ch.close();
        }
        all.clear();
        byPort.clear();
    }
}
