package io.rocelab.perftest.nic;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.rocelab.fabric.endpoint.UdpEndpointPort;
import io.rocelab.fabric.endpoint.UdpTransport;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.raw.RawBackend;
import io.rocelab.fabric.raw.RawEthernetPort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.nic.SoftNic;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * What a soft NIC is plugged into: the thread that owns it and the port its frames leave by.
 * Closing it releases what it opened (a UDP socket, an event loop), and nothing it was handed.
 */
public interface NicAttachment extends AutoCloseable {

    /**
     * With {@code -Drocelab.counters=true} the NIC's and the UDP endpoint port's non-zero counters are
     * printed to stderr when a run ends (drops, retries, GSO sends): what a benchmark report cites.
     */
    String COUNTERS_PROPERTY = "rocelab.counters";

    /** The owner thread of the NIC (and of the port). */
    Scheduler scheduler();

    /** The port the NIC sends and receives frames on. */
    FramePort port();

    /** A short description for messages ("frame-over-UDP 127.0.0.1:40000 -> 127.0.0.1:40001"). */
    String describe();

    @Override
    void close();

    /**
     * Adds what this attachment needs of the NIC to its builder (by default nothing).
     *
     * @param nic the NIC's builder, addresses and port already set
     * @return the builder
     */
    default SoftNic.Builder configure(SoftNic.Builder nic) {
        return nic;
    }

    /** The second link's port (port 2, or a bond's second member), or null for a NIC of one link. */
    default FramePort port2() {
        return null;
    }

    /**
     * {@link #configure(SoftNic.Builder)} with {@code secondLink} in place of {@link #port2()} (a
     * capture's tap on it).
     */
    default SoftNic.Builder configure(SoftNic.Builder nic, FramePort secondLink) {
        return configure(nic);
    }

    /**
     * Says on stderr, when a raw port's run ends, how many frames its interface refused (a send that
     * failed: a frame longer than the interface's MTU, the interface down), which the NIC's own
     * counters cannot show: to the NIC they left, to its peer they never came.
     */
    private static void reportRefused(String iface, RawEthernetPort port) {
        long refused = port.counters().get(io.rocelab.fabric.raw.RawPortCounter.TX_ERRORS);
        if (refused > 0) {
            System.err.println(" " + iface + " refused " + refused + " frame" + (refused == 1 ? "" : "s")
                + " the NIC sent (tx_errors): each was lost on the wire");
        }
    }

    /** With {@link #COUNTERS_PROPERTY} set, prints a port's counters when its run ends. */
    private static void printCounters(String name, Object counters) {
        if (Boolean.getBoolean(COUNTERS_PROPERTY)) {
            System.err.println(" " + name + " port counters: " + counters);
        }
    }

    /** UDP endpoint mode's requester window (PSNs). */
    int UDP_ENDPOINT_WINDOW = 512;
    /** UDP endpoint mode's packets per ACK request on a SEND/WRITE stream. */
    int UDP_ENDPOINT_ACK_REQ_INTERVAL = 128;

    /**
     * UDP endpoint mode on its own event loop (epoll where it loads, else NIO, said in
     * {@link #describe()}): the NIC receives on {@code localIp}:4791 and sends each QP's packets from
     * its own source port there; its IPv4 identification is fixed, since the peer rebuilds the IP
     * header the ICRC covers.
     *
     * @param nicMac the NIC's MAC (received frames are addressed to it)
     */
    static NicAttachment udpEndpoint(String name, String localIp, long nicMac) {
        UdpTransport transport = UdpTransport.best();
        // the loop keeps polling for 100 µs after its last work before it sleeps: the two ends wait
        // on each other (data one way, ACKs the other), and a sleep and a wake-up per message cost
        // more than polling in between (UdpTransport.newLoopGroup, SpinThenBlock)
        MultiThreadIoEventLoopGroup group = transport.newLoopGroup(name, 100_000);
        try {
            RealTimeScheduler scheduler = new RealTimeScheduler(group.next());
            UdpEndpointPort port;
            try {
                port = UdpEndpointPort.builder().name(name).localAddress(InetAddress.getByName(localIp)).nicMac(nicMac)
                        .open(group.next());
            } catch (java.net.UnknownHostException e) {
                throw new IllegalArgumentException("--udp-endpoint: bad address " + localIp, e);
            } catch (java.io.UncheckedIOException e) {
                throw new IllegalArgumentException("--udp-endpoint: cannot receive on " + localIp + ":4791 ("
                        + e.getCause().getMessage() + "); it must be an address of this host, with port 4791 free", e);
            }
            String reason = UdpTransport.epollUnavailableReason();
            String text = port.describe() + (transport == UdpTransport.NIO ? " [epoll unavailable: " + reason + "]" : "");
            return new PlainAttachment(scheduler, port, text, () -> {
                printCounters(name, port.counters());
                try {
                    port.close();
                } finally {
                    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
                }
            }, nic -> nic.fixedIpId(0)
                    // the peer is always another rocelab NIC (no other RoCE receiver accepts these
                    // ICRCs), and each ACK costs a recvmsg and an epoll round at the requester and a
                    // send at the responder: one ACK per 64 packets in a window of 512 PSNs took
                    // 6-8 % less client CPU per byte than rxe's ACK per message in 128 PSNs; one per
                    // 128 (half the window, the most it allows) then gave ib_write_bw 64 KB +5.6 %
                    // and the server -5.7 % CPU per byte (7 of 8 alternating runs), as each ACK's
                    // sendto carries its whole delivery to the requester's socket (~5 us here)
                    .maxUnackedPsns(UDP_ENDPOINT_WINDOW).ackReqInterval(UDP_ENDPOINT_ACK_REQ_INTERVAL));
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * A raw port on the Linux interface {@code iface} (AF_PACKET or libpcap), on its own event loop: the NIC's
     * frames go out there whole and it receives what comes in on the interface.
     */
    static NicAttachment raw(String name, String iface, RawBackend backend) {
        RealTimeScheduler scheduler = RealTimeScheduler.start(name);
        try {
            RawEthernetPort port;
            try {
                port = RawEthernetPort.open(name, iface, scheduler, backend);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("--raw: " + e.getMessage(), e);
            }
            return owning(name, scheduler, port, "raw " + port.describe(), port.counters(), () -> {
                reportRefused(iface, port);
                port.close();
            });
        } catch (RuntimeException e) {
            scheduler.close();
            throw e;
        }
    }

    /**
     * A frame-over-UDP port (qemu's socket netdev format) on its own event loop: frames are
     * received on {@code localPort} and sent to {@code host:remotePort}.
     */
    static NicAttachment udpFrame(String name, int localPort, String host, int remotePort) {
        RealTimeScheduler scheduler = RealTimeScheduler.start(name);
        try {
            InetSocketAddress remote = new InetSocketAddress(host, remotePort);
            if (remote.isUnresolved()) {
                throw new IllegalArgumentException("--udp-frame: cannot resolve " + host);
            }
            UdpFramePort.Builder b = UdpFramePort.builder().name(name);
            if (remote.getAddress().isLoopbackAddress()) {
                b.localPort(localPort);
            } else {
                b.localAddress(new InetSocketAddress(localPort));
            }
            UdpFramePort port = b.remoteAddress(remote).open(scheduler);
            String text = "frame-over-UDP " + port.localAddress() + " -> " + remote;
            return owning(name, scheduler, port, text, port.counters(), port::close);
        } catch (RuntimeException e) {
            scheduler.close();
            throw e;
        }
    }

    /**
     * {@code first} with the NIC's port 2 on the link {@code nic} names ({@code --udp-frame2} or
     * {@code --raw2}), opened on the same owner thread: the NIC gets it as its port 2, with the
     * role's port-2 addresses, or as the second member of its bond ({@code --bond}). Closing closes
     * port 2, then {@code first}. Without a second link, {@code first} itself.
     */
    static NicAttachment withPort2(NicAttachment first, NicOptions nic, boolean server) {
        if (nic.link2() == null) {
            return first;
        }
        String name = "rocelab-" + (server ? "server" : "client") + "-2";
        FramePort port2;
        Runnable close2;
        String text;
        try {
            if (nic.dataPath() == NicOptions.DataPath.UDP_FRAME) {
                String[] p = nic.link2().split(":");
                InetSocketAddress remote = new InetSocketAddress(p[1], Integer.parseInt(p[2]));
                if (remote.isUnresolved()) {
                    throw new IllegalArgumentException("--udp-frame2: cannot resolve " + p[1]);
                }
                UdpFramePort.Builder b = UdpFramePort.builder().name(name);
                if (remote.getAddress().isLoopbackAddress()) {
                    b.localPort(Integer.parseInt(p[0]));
                } else {
                    b.localAddress(new InetSocketAddress(Integer.parseInt(p[0])));
                }
                UdpFramePort u = b.remoteAddress(remote).open((RealTimeScheduler) first.scheduler());
                port2 = u;
                close2 = u::close;
                text = "frame-over-UDP " + u.localAddress() + " -> " + remote;
            } else {
                RawEthernetPort r;
                try {
                    r = RawEthernetPort.open(name, nic.link2(), first.scheduler(), nic.rawBackend());
                } catch (java.io.IOException e) {
                    throw new IllegalArgumentException("--raw2: " + e.getMessage(), e);
                }
                port2 = r;
                close2 = () -> {
                    reportRefused(nic.link2(), r);
                    r.close();
                };
                text = "raw " + r.describe();
            }
        } catch (RuntimeException e) {
            first.close();
            throw e;
        }
        return new PlainAttachment(first.scheduler(), first.port(), port2, first.describe() + ", port 2 " + text, () -> {
            try {
                close2.run();
            } finally {
                first.close();
            }
        }, (b, link2) -> nic.bond() != null ? first.configure(b).bond(link2, nic.bond()).lacpRate("fast")
                : first.configure(b).port2(link2, nic.mac2For(server), nic.ip2For(server)));
    }

    /**
     * An attachment that owns its port and its loop: closing it prints the port's counters (with
     * {@link #COUNTERS_PROPERTY}), closes the port, then stops the loop.
     */
    private static NicAttachment owning(String name, RealTimeScheduler scheduler, FramePort port, String text,
                                        Object counters, Runnable closePort) {
        return new PlainAttachment(scheduler, port, text, () -> {
            printCounters(name, counters);
            try {
                closePort.run();
            } finally {
                scheduler.close();
            }
        }, UnaryOperator.identity());
    }
}
