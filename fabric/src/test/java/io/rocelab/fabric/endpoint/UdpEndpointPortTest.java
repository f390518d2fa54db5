package io.rocelab.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.Await;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two {@link UdpEndpointPort}s on loopback addresses of their own (127.0.99.x, so that port 4791 is
 * free whatever else runs on the machine), each on its own event loop, epoll and NIO alike.
 */
class UdpEndpointPortTest {
    private static final String IP_A = "127.0.99.1";
    private static final String IP_B = "127.0.99.2";
    private static final String IP_PLAIN = "127.0.99.3";
    private static final long MAC_A = 0x0252_5400_9901L;
    private static final long MAC_B = 0x0252_5400_9902L;
    private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(10);

    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<ByteBuf> received = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void closeAll() throws Exception {
        Collections.reverse(open);
        for (AutoCloseable c : open) {
            c.close();
        }
        synchronized (received) {
            received.forEach(ByteBuf::release);
        }
    }

    private static void assumeAvailable(UdpTransport t) {
        if (t == UdpTransport.EPOLL && UdpTransport.best() != UdpTransport.EPOLL) {
            // CI runs on Linux x86-64, where the native library must load
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("epoll unavailable in CI: " + UdpTransport.epollUnavailableReason());
            }
            Assumptions.abort("epoll unavailable here: " + UdpTransport.epollUnavailableReason());
        }
    }

    private EventLoop loop(UdpTransport t, String name) {
        MultiThreadIoEventLoopGroup group = t.newLoopGroup(name);
        open.add(() -> group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS));
        return group.next();
    }

    private UdpEndpointPort port(UdpTransport t, String ip, long mac, UdpEndpointPort.Builder b) throws Exception {
        UdpEndpointPort p = b.name(ip).localAddress(InetAddress.getByName(ip)).nicMac(mac).open(loop(t, ip));
        open.add(p);
        return p;
    }

    private UdpEndpointPort port(UdpTransport t, String ip, long mac) throws Exception {
        return port(t, ip, mac, UdpEndpointPort.builder());
    }

    private UdpEndpointPort recordingPort(UdpTransport t, String ip, long mac) throws Exception {
        UdpEndpointPort p = port(t, ip, mac);
        p.setReceiver((port, frame) -> received.add(frame));
        return p;
    }

    private static RoceFrame write(String src, String dst, int srcPort, int psn, byte[] payload) {
        return new RoceFrame().ethernet(MAC_B, MAC_A).ipv4(Ipv4.parse(src), Ipv4.parse(dst)).udp(srcPort, 4791)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).destQp(0x11).psn(psn).reth(0x1000, 0x1234, payload.length)
            .payload(payload);
    }

    private static byte[] payload(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    private static byte[] bytes(ByteBuf b, int from) {
        return ByteBufUtil.getBytes(b, b.readerIndex() + from, b.readableBytes() - from);
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void aFrameArrivesAsTheSameRoceFrameFromTheQpsSourcePort(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        UdpEndpointPort b = recordingPort(t, IP_B, MAC_B);
        ByteBuf sent = write(IP_A, IP_B, 0xC123, 7, payload(1000, 1)).encode(UnpooledByteBufAllocator.DEFAULT);
        byte[] sentFromIp = bytes(sent, Ethernet.LENGTH);
        a.send(sent);
        Await.until(() -> received.size() == 1, TIMEOUT, "the frame at B: " + b.counters());
        ByteBuf got = received.get(0);
        assertEquals(MAC_B, Ethernet.dst(got, 0), "addressed to B's NIC");
        // from the IP header on, bit for bit the frame A's NIC built: the addresses, the ports
        // (0xC123, the QP's, not an ephemeral one), lengths, identification, TTL, BTH, RETH, ICRC
        assertArrayEquals(sentFromIp, bytes(got, Ethernet.LENGTH));
        ParsedFrame f = new ParsedFrame();
        assertEquals(null, f.parse(got));
        assertTrue(new Icrc().verify(f), "ICRC over the rebuilt headers");
        assertEquals(1, a.counters().get(UdpEndpointCounter.PACKETS_SENT));
        assertEquals(1, b.counters().get(UdpEndpointCounter.PACKETS_RECEIVED));
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void aPlainSocketSeesTheQpsSourcePortAndTheRocePayload(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        try (DatagramSocket plain = new DatagramSocket(new InetSocketAddress(IP_PLAIN, 4791))) {
            plain.setSoTimeout(10_000);
            ByteBuf sent = write(IP_A, IP_PLAIN, 0xD00D, 9, payload(500, 2)).encode(UnpooledByteBufAllocator.DEFAULT);
            byte[] roce = bytes(sent, Ethernet.LENGTH + Ipv4.MIN_LENGTH + 8);
            a.send(sent);
            DatagramPacket p = new DatagramPacket(new byte[2000], 2000);
            plain.receive(p);
            assertEquals(0xD00D, p.getPort(), "UDP source port on the wire");
            assertEquals(InetAddress.getByName(IP_A), p.getAddress());
            byte[] data = java.util.Arrays.copyOf(p.getData(), p.getLength());
            assertArrayEquals(roce, data, "BTH to ICRC, as the NIC built it");
        }
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void aBurstOfEqualPacketsArrivesWholeAndInOrder(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        UdpEndpointPort b = recordingPort(t, IP_B, MAC_B);
        int n = 40;
        List<byte[]> expected = new ArrayList<>();
        List<ByteBuf> frames = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // the last packet of each group of 10 is shorter, as the last packet of a message
            int length = i % 10 == 9 ? 700 : 4096;
            ByteBuf f = write(IP_A, IP_B, 0xC200 + i / 20, 100 + i, payload(length, i)).encode(
                UnpooledByteBufAllocator.DEFAULT);
            expected.add(bytes(f, Ethernet.LENGTH));
            frames.add(f);
        }
        // sent in one task of the owner loop, as a NIC sends a message: one batch
        a.eventLoop().execute(() -> frames.forEach(a::send));
        try {
            Await.until(() -> received.size() == n, TIMEOUT, n + " frames at B");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + ": got " + received.size() + ", B " + b.counters() + ", A "
                + a.counters(), e);
        }
        for (int i = 0; i < n; i++) {
            assertArrayEquals(expected.get(i), bytes(received.get(i), Ethernet.LENGTH), "frame " + i);
        }
        assertEquals(2, sourcePortsSeen(), "two source ports, two sockets");
        if (t.segmentationOffload()) {
            assertTrue(a.gsoActive());
            assertTrue(a.counters().get(UdpEndpointCounter.GSO_SENDS) >= 4, "runs sent as GSO: " + a.counters());
        } else {
            assertEquals(0, a.counters().get(UdpEndpointCounter.GSO_SENDS));
        }
        assertEquals(0, a.counters().get(UdpEndpointCounter.TX_ERRORS));
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void readAndGsoBuffersAndFramesAreReusedNotCreatedPerDatagram(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        UdpEndpointPort b = port(t, IP_B, MAC_B);
        java.util.concurrent.atomic.AtomicInteger got = new java.util.concurrent.atomic.AtomicInteger();
        b.setReceiver((port, frame) -> {
            frame.release(); // a NIC frees a frame on the port's loop once it has handled it
            got.incrementAndGet();
        });
        int n = 30;
        int rounds = 20;
        for (int round = 0; round < rounds; round++) {
            List<ByteBuf> frames = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                frames.add(write(IP_A, IP_B, 0xC300, round * n + i, payload(i % 15 == 14 ? 900 : 4096, i))
                    .encode(UnpooledByteBufAllocator.DEFAULT));
            }
            a.eventLoop().execute(() -> frames.forEach(a::send));
            int expected = (round + 1) * n;
            Await.until(() -> got.get() == expected, TIMEOUT, expected + " frames at B: " + b.counters());
        }
        // what is created is what is in use at once, not one buffer per datagram: at B one wake-up's
        // reads (Netty hands them on after its last read) and a frame or two; at A a flush's GSO buffers
        long atA = a.buffersCreated();
        long atB = b.buffersCreated();
        assertTrue(atA >= 0 && atA <= 8, "GSO buffers created at A for " + rounds * 4 + " runs: " + atA);
        assertTrue(atB > 0 && atB <= UdpEndpointPort.READS_PER_WAKE + 2,
            "buffers created at B for " + rounds * n + " datagrams: " + atB);
        // every datagram's headers went in front of it in its read buffer: the first of a read into
        // the read buffer's headroom, the others over the consumed tail of the one before
        assertEquals(rounds * n, b.counters().get(UdpEndpointCounter.PACKETS_RECEIVED_IN_PLACE),
            "frames rebuilt in place at B: " + b.counters());
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void packetsWrittenInPlaceLeaveAsDatagramsInOrderWithFramesBetween(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        UdpEndpointPort b = recordingPort(t, IP_B, MAC_B);
        int ipA = Ipv4.parse(IP_A);
        int ipB = Ipv4.parse(IP_B);
        // never in place off the owner thread, whatever the transport
        assertEquals(null, a.claim(ipA, 0xC400, ipB, 0, 100));
        if (!t.segmentationOffload()) {
            assertEquals(null, a.eventLoop().submit(() -> a.claim(ipA, 0xC400, ipB, 0, 100)).get(10, TimeUnit.SECONDS),
                "no GSO, no in-place path: the NIC builds frames");
            return;
        }
        // 40 packets: two QPs' source ports, a message end (700 bytes) every 10 packets, a frame
        // handed over the usual way at 25, and one claim given back at 12
        List<byte[]> expected = new ArrayList<>();
        List<Object> steps = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int srcPort = i < 20 ? 0xC400 : 0xC401;
            int length = i % 10 == 9 ? 700 : 4112;
            if (i == 25) {
                ByteBuf f = write(IP_A, IP_B, srcPort, 500 + i, payload(1000, i)).encode(UnpooledByteBufAllocator.DEFAULT);
                expected.add(bytes(f, Ethernet.LENGTH + Ipv4.MIN_LENGTH + 8));
                steps.add(f);
            } else {
                byte[] p = payload(length, i);
                expected.add(p);
                steps.add(new int[] {srcPort, i});
            }
        }
        java.util.concurrent.Future<Boolean> wrote = a.eventLoop().submit(() -> {
            boolean wrongSourceRefused = a.claim(ipB, 0xC400, ipB, 0, 100) == null;
            boolean wrongIdRefused = a.claim(ipA, 0xC400, ipB, 7, 100) == null;
            for (int i = 0; i < steps.size(); i++) {
                if (steps.get(i) instanceof ByteBuf f) {
                    a.send(f);
                    continue;
                }
                int[] s = (int[]) steps.get(i);
                byte[] p = expected.get(i);
                if (i == 12) {
                    ByteBuf given = a.claim(ipA, s[0], ipB, 0, 4112);
                    given.setBytes(given.writerIndex() - 4112, payload(4112, 99));
                    a.abort();
                }
                ByteBuf b2 = a.claim(ipA, s[0], ipB, 0, p.length);
                b2.setBytes(b2.writerIndex() - p.length, p);
                a.commit();
            }
            return wrongSourceRefused && wrongIdRefused;
        });
        assertTrue(wrote.get(10, TimeUnit.SECONDS),
            "a source address other than the port's, or an identification other than 0, is refused");
        Await.until(() -> received.size() == 40, TIMEOUT, "40 datagrams at B: " + b.counters() + ", A " + a.counters());
        for (int i = 0; i < 40; i++) {
            assertArrayEquals(expected.get(i), bytes(received.get(i), Ethernet.LENGTH + Ipv4.MIN_LENGTH + 8),
                "datagram " + i);
        }
        assertEquals(2, sourcePortsSeen());
        assertEquals(39, a.counters().get(UdpEndpointCounter.PACKETS_WRITTEN_IN_PLACE), a.counters().toString());
        assertEquals(40, a.counters().get(UdpEndpointCounter.PACKETS_SENT), a.counters().toString());
        // runs: 0-8 + 9, 10-18 + 19, 20-24, 26-28 + 29, 30-38 + 39; 25 alone
        assertEquals(5, a.counters().get(UdpEndpointCounter.GSO_SENDS), a.counters().toString());
    }

    private long sourcePortsSeen() {
        synchronized (received) {
            return received.stream().map(f -> f.getUnsignedShort(Ethernet.LENGTH + Ipv4.MIN_LENGTH)).distinct().count();
        }
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void runtAndOversizedDatagramsAreCountedAndDropped(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort b = port(t, IP_B, MAC_B, UdpEndpointPort.builder().maxPayloadBytes(1000));
        b.setReceiver((port, frame) -> received.add(frame));
        try (DatagramSocket plain = new DatagramSocket(new InetSocketAddress(IP_PLAIN, 0))) {
            InetSocketAddress to = new InetSocketAddress(IP_B, 4791);
            plain.send(new DatagramPacket(new byte[15], 15, to));
            plain.send(new DatagramPacket(new byte[0], 0, to));
            plain.send(new DatagramPacket(new byte[1001], 1001, to));
            plain.send(new DatagramPacket(new byte[1000], 1000, to));
        }
        Await.until(() -> received.size() == 1, TIMEOUT, "the one well-sized datagram: " + b.counters());
        Await.until(() -> b.counters().get(UdpEndpointCounter.RX_DROPPED_RUNT) == 2
            && b.counters().get(UdpEndpointCounter.RX_DROPPED_OVERSIZED) == 1, TIMEOUT, "drops: " + b.counters());
        assertEquals(1000 + DatagramFrames.HEADERS, received.get(0).readableBytes());
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void framesAPeerCouldNotCheckAreCountedAndDropped(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        try (DatagramSocket plain = new DatagramSocket(new InetSocketAddress(IP_PLAIN, 4791))) {
            plain.setSoTimeout(300);
            var alloc = UnpooledByteBufAllocator.DEFAULT;
            a.send(write(IP_A, IP_PLAIN, 0xC001, 1, payload(64, 0)).ipId(5).encode(alloc));
            a.send(write(IP_A, IP_PLAIN, 0xC001, 1, payload(64, 0)).flagsFragment(0).encode(alloc));
            a.send(write("127.0.99.9", IP_PLAIN, 0xC001, 1, payload(64, 0)).encode(alloc));
            a.send(write(IP_A, IP_PLAIN, 0xC001, 1, payload(64, 0)).udp(0xC001, 4792).encode(alloc));
            a.send(write(IP_A, IP_PLAIN, 0xC001, 1, payload(64, 0)).ipv6(new byte[16], new byte[16]).encode(alloc));
            ByteBuf truncated = write(IP_A, IP_PLAIN, 0xC001, 1, payload(64, 0)).encode(alloc);
            truncated.writerIndex(truncated.writerIndex() - 10);
            a.send(truncated);
            Await.until(() -> a.counters().get(UdpEndpointCounter.TX_DROPPED_IP_ID) == 2
                && a.counters().get(UdpEndpointCounter.TX_DROPPED_WRONG_SOURCE) == 1
                && a.counters().get(UdpEndpointCounter.TX_DROPPED_NOT_ROCE) == 1
                && a.counters().get(UdpEndpointCounter.TX_DROPPED_NOT_IPV4) == 1
                && a.counters().get(UdpEndpointCounter.TX_DROPPED_MALFORMED) == 1, TIMEOUT, "drops: " + a.counters());
            assertEquals(0, a.counters().get(UdpEndpointCounter.PACKETS_SENT));
            DatagramPacket p = new DatagramPacket(new byte[2000], 2000);
            org.junit.jupiter.api.Assertions.assertThrows(java.net.SocketTimeoutException.class, () -> plain.receive(p));
        }
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void aSourcePortHeldByAnotherSocketIsCountedNotSentFromElsewhere(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = port(t, IP_A, MAC_A);
        UdpEndpointPort b = recordingPort(t, IP_B, MAC_B);
        try (DatagramSocket squatter = new DatagramSocket(new InetSocketAddress(IP_A, 0xC777))) {
            a.send(write(IP_A, IP_B, 0xC777, 1, payload(64, 0)).encode(UnpooledByteBufAllocator.DEFAULT));
            a.send(write(IP_A, IP_B, 0xC778, 2, payload(64, 0)).encode(UnpooledByteBufAllocator.DEFAULT));
            Await.until(() -> received.size() == 1, TIMEOUT, "the frame from the free port: " + a.counters());
            assertEquals(1, a.counters().get(UdpEndpointCounter.TX_DROPPED_SOURCE_PORT_BUSY));
            assertEquals(0xC778, received.get(0).getUnsignedShort(Ethernet.LENGTH + Ipv4.MIN_LENGTH));
        }
    }

    @ParameterizedTest
    @EnumSource(UdpTransport.class)
    void theNicsArpRequestsAreAnsweredByThePort(UdpTransport t) throws Exception {
        assumeAvailable(t);
        UdpEndpointPort a = recordingPort(t, IP_A, MAC_A);
        ByteBuf request = UnpooledByteBufAllocator.DEFAULT.buffer(42);
        request.writerIndex(42);
        Ethernet.write(request, 0, 0xFFFF_FFFF_FFFFL, MAC_A, EtherType.ARP);
        Arp.write(request, Ethernet.LENGTH, Arp.REQUEST, MAC_A, Ipv4.parse(IP_A), 0, Ipv4.parse("10.99.1.2"));
        a.send(request);
        Await.until(() -> received.size() == 1, TIMEOUT, "the ARP reply");
        ByteBuf reply = received.get(0);
        assertEquals(MAC_A, Ethernet.dst(reply, 0));
        assertEquals(Arp.REPLY, Arp.operation(reply, Ethernet.LENGTH));
        assertEquals(Ipv4.parse("10.99.1.2"), Arp.senderIp(reply, Ethernet.LENGTH));
        assertEquals(ArpAnswers.GATEWAY_MAC, Arp.senderMac(reply, Ethernet.LENGTH));
        assertEquals(Ipv4.parse(IP_A), Arp.targetIp(reply, Ethernet.LENGTH));
        assertEquals(1, a.counters().get(UdpEndpointCounter.ARP_ANSWERED));
    }
}
