package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.endpoint.UdpEndpointCounter;
import io.rocelab.fabric.endpoint.UdpEndpointPort;
import io.rocelab.fabric.endpoint.UdpPayloadSink;
import io.rocelab.fabric.endpoint.UdpTransport;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two soft NICs in UDP endpoint mode on loopback addresses of their own (127.0.98.1 and .2, port
 * 4791 each), each on its own event loop: RC WRITE, SEND and READ end to end through the kernel's
 * UDP stack, and the checks the receiving NIC makes on what arrives (ICRC over the rebuilt headers,
 * with the sender's real source port).
 */
class UdpEndpointTransferTest {
    private static final String IP_A = "127.0.98.1";
    private static final String IP_B = "127.0.98.2";
    private static final String IP_PLAIN = "127.0.98.3";
    private static final int SIZE = 256 * 1024;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final Set<Integer> srcPortsAtA = Collections.synchronizedSet(new TreeSet<>());
    private final Set<Integer> srcPortsAtB = Collections.synchronizedSet(new TreeSet<>());
    private UdpEndpointPort portA;
    private UdpEndpointPort portB;
    private SoftNic a;
    private SoftNic b;

    @BeforeEach
    void start() throws Exception {
        portA = port(IP_A, 0x0252_5400_9801L);
        portB = port(IP_B, 0x0252_5400_9802L);
        a = nic("a", portA, IP_A, new SourcePortTap(portA, srcPortsAtA));
        b = nic("b", portB, IP_B, new SourcePortTap(portB, srcPortsAtB));
    }

    private UdpEndpointPort port(String ip, long mac) throws Exception {
        MultiThreadIoEventLoopGroup group = UdpTransport.best().newLoopGroup("nic-" + ip);
        open.add(() -> group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
        UdpEndpointPort p = UdpEndpointPort.builder().name(ip).localAddress(InetAddress.getByName(ip)).nicMac(mac)
                .open(group.next());
        open.add(p);
        return p;
    }

    private SoftNic nic(String name, UdpEndpointPort port, String ip, FramePort tapped) {
        SoftNic nic = SoftNic.builder().name(name).mac(port.nicMac()).ipv4(ip).activeMtu(4096).fixedIpId(0)
                .scheduler(new RealTimeScheduler(port.eventLoop())).port(tapped).build();
        open.add(nic::close);
        return nic;
    }

    @AfterEach
    void stop() throws Exception {
        Collections.reverse(open);
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    @Test
    void rcWriteSendAndReadCompleteWithTheDataInPlace() throws Exception {
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        CompletionQueue cqA = a.createCq(64);
        CompletionQueue cqB = b.createCq(64);
        QueuePair qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
        QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
        // local ACK timeout 18 (1.07 s) rather than perftest's 14 (67 ms): on a loaded 2-core machine an
        // event loop can wait tens of ms for a core, and a READ response of 64 packets that takes longer
        // than the timer is resent again and again (go-back-N) on a path that loses nothing. This test
        // is about the data path; the timer has tests of its own.
        NicRig.connect(qpA, qpB, Ipv4.parse(IP_B), NicRig.PSN_B, NicRig.PSN_A, QpType.RC, 4096, 18, 7, 7, 12);
        NicRig.connect(qpB, qpA, Ipv4.parse(IP_A), NicRig.PSN_A, NicRig.PSN_B, QpType.RC, 4096, 18, 7, 7, 12);

        Supplier<String> counters = () -> " A " + a.counters() + " " + portA.counters() + " B " + b.counters() + " "
                + portB.counters();
        WriteSendReadRound.run(pdA, pdB, qpA, qpB, cqA, cqB, SIZE, 11, 0x100000, counters);
        String state = counters.get();
        assertEquals(0, a.counters().get(NicCounter.DROP_BAD_ICRC) + b.counters().get(NicCounter.DROP_BAD_ICRC), state);
        // the UDP source port the receiving NIC saw is the sending QP's, each way (RoCEv2: per QP,
        // in 0xC000-0xFFFF)
        assertEquals(Set.of(qpA.udpSourcePort()), srcPortsAtB, state);
        assertEquals(Set.of(qpB.udpSourcePort()), srcPortsAtA, state);
        assertTrue(qpA.udpSourcePort() >= Udp.ROCE_SOURCE_PORT_MIN);
        assertEquals(portA.counters().get(UdpEndpointCounter.PACKETS_SENT),
                portB.counters().get(UdpEndpointCounter.PACKETS_RECEIVED), state);
        if (portA.gsoActive()) {
            // every packet (requests, ACKs, READ responses) written where it leaves, none as a frame
            assertEquals(a.counters().get(NicCounter.SENT_PKTS),
                    portA.counters().get(UdpEndpointCounter.PACKETS_WRITTEN_IN_PLACE), state);
            assertEquals(b.counters().get(NicCounter.SENT_PKTS),
                    portB.counters().get(UdpEndpointCounter.PACKETS_WRITTEN_IN_PLACE), state);
            assertTrue(portA.counters().get(UdpEndpointCounter.GSO_SENDS) > 0, state);
        }
    }

    @Test
    void aBadIcrcATruncatedDatagramAndAWrongSourcePortAreCountedAndDropped() throws Exception {
        int srcPort = 0xC555;
        try (DatagramSocket plain = new DatagramSocket(new InetSocketAddress(IP_PLAIN, srcPort))) {
            InetSocketAddress toB = new InetSocketAddress(IP_B, 4791);
            // a well-formed SEND to a QP that does not exist: the ICRC passes, the QP lookup fails
            byte[] good = roce(srcPort);
            plain.send(new DatagramPacket(good, good.length, toB));
            awaitCounter(() -> b.counters().get(NicCounter.DROP_UNKNOWN_QP) == 1, "the good datagram reaches the QP lookup");

            byte[] corrupt = good.clone();
            corrupt[40] ^= 0x01; // a payload bit
            plain.send(new DatagramPacket(corrupt, corrupt.length, toB));
            awaitCounter(() -> b.counters().get(NicCounter.DROP_BAD_ICRC) == 1, "the corrupted datagram");

            // the ICRC covers the UDP source port (A17.4.1): computed for another port than the one
            // the datagram comes from, it fails
            byte[] otherPort = roce(srcPort + 1);
            plain.send(new DatagramPacket(otherPort, otherPort.length, toB));
            awaitCounter(() -> b.counters().get(NicCounter.DROP_BAD_ICRC) == 2, "the datagram from the wrong port");

            plain.send(new DatagramPacket(good, good.length - 10, toB));
            awaitCounter(() -> b.counters().get(NicCounter.DROP_BAD_ICRC) + b.counters().get(NicCounter.DROP_MALFORMED)
                    == 3, "the truncated datagram");
            plain.send(new DatagramPacket(good, 10, toB));
            awaitCounter(() -> portB.counters().get(UdpEndpointCounter.RX_DROPPED_RUNT) == 1, "the runt");
            assertEquals(1, b.counters().get(NicCounter.DROP_UNKNOWN_QP), "nothing else got through");
            assertFalse(b.counters().get(NicCounter.RCVD_PKTS) > 1);
        }
    }

    /** BTH to ICRC of a SEND ONLY from IP_PLAIN:srcPort to B's QP 0x999, ICRC for those headers. */
    private static byte[] roce(int srcPort) {
        ByteBuf f = new RoceFrame().ethernet(0x0252_5400_9802L, 0x0252_5400_9803L)
                .ipv4(Ipv4.parse(IP_PLAIN), Ipv4.parse(IP_B)).udp(srcPort, 4791).opcode(Opcode.RC_SEND_ONLY)
                .destQp(0x999).psn(5).payload(new byte[64]).encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            int from = Ethernet.LENGTH + Ipv4.MIN_LENGTH + Udp.LENGTH;
            return ByteBufUtil.getBytes(f, from, f.readableBytes() - from);
        } finally {
            f.release();
        }
    }

    private static void awaitCounter(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Records the UDP source port of every RoCEv2 frame the NIC receives; passes the port's in-place
     * payload path through, so that the NIC sends as it does on the bare port.
     */
    private static final class SourcePortTap extends ForwardingFramePort implements UdpPayloadSink {
        private final Set<Integer> seen;
        private final UdpEndpointPort port;

        SourcePortTap(UdpEndpointPort delegate, Set<Integer> seen) {
            super(delegate);
            this.seen = seen;
            this.port = delegate;
        }

        @Override
        public ByteBuf claim(int srcIp, int srcPort, int dstIp, int ipId, int length) {
            return port.claim(srcIp, srcPort, dstIp, ipId, length);
        }

        @Override
        public void commit() {
            port.commit();
        }

        @Override
        public void abort() {
            port.abort();
        }

        @Override
        public void setReceiver(FrameReceiver receiver) {
            delegate.setReceiver(receiver == null ? null : (port, frame) -> {
                if (Ethernet.etherType(frame, 0) == io.rocelab.codec.header.EtherType.IPV4
                        && Ipv4.protocol(frame, Ethernet.LENGTH) == Ipv4.PROTO_UDP) {
                    seen.add(Udp.srcPort(frame, Ethernet.LENGTH + Ipv4.MIN_LENGTH));
                }
                receiver.onFrame(this, frame);
            });
        }
    }
}
