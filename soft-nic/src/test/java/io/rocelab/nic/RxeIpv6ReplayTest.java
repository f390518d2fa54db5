package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.RxeCaptures;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.Icmpv6;
import io.rocelab.nic.net.NeighborDiscovery;
import io.rocelab.nic.stats.NicCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replays rc_pingpong over IPv6 between two Linux rxe hosts (client fd77::11, server fd77::10)
 * against rocelab. IPv6 has no identification field, so rocelab's frames can be compared with the
 * Linux ones byte for byte, ICRC included:
 * <ul>
 * <li>as the server, its neighbour advertisement answering the client's solicitation, its own
 *     solicitation of the client's global address (the client's came from its link-local one), and
 *     every RoCE response to the client's requests;</li>
 * <li>as the client, the neighbour solicitation it sends to resolve the server.</li>
 * </ul>
 */
class RxeIpv6ReplayTest {
    private static final Gid CLIENT = Gid.ipv6("fd77::11");
    private static final Gid SERVER = Gid.ipv6("fd77::10");
    private static final long CLIENT_MAC = 0x5254_0077_0001L;
    private static final long SERVER_MAC = 0x5254_0077_0000L;

    /** The frames of the capture this test needs, as bytes. */
    private static final class Capture {
        byte[] clientNs;
        byte[] serverNa;
        byte[] serverNs;
        byte[] clientNa;
        final List<byte[]> requests = new ArrayList<>();
        final List<byte[]> responses = new ArrayList<>();
    }

    private static Capture load() {
        Path file = RxeCaptures.files().stream().filter(p -> p.getFileName().toString().equals("rc_pingpong_ipv6.pcap"))
                .findFirst().orElseThrow();
        List<CaptureRecord> records = RxeCaptures.read(file);
        Capture c = new Capture();
        ParsedFrame f = new ParsedFrame();
        byte[] src = new byte[16];
        byte[] target = new byte[16];
        try {
            for (CaptureRecord r : records) {
                ByteBuf b = r.content();
                if (f.parse(b) != null || f.ipVersion() != 6) {
                    continue;
                }
                Ipv6.src(b, f.l3Offset(), src);
                long ethSrc = Ethernet.src(b, b.readerIndex());
                if (f.kind() == FrameKind.ROCEV2) {
                    if (Gid.of(src).equals(CLIENT) && f.opcode().has(Opcode.REQUEST)) {
                        c.requests.add(ByteBufUtil.getBytes(b));
                    } else if (Gid.of(src).equals(SERVER) && !f.opcode().has(Opcode.REQUEST)) {
                        c.responses.add(ByteBufUtil.getBytes(b));
                    }
                } else if (f.l4Protocol() == Icmpv6.NEXT_HEADER && Ipv6.payloadLength(b, f.l3Offset()) >= 24) {
                    int icmp = f.l4Offset();
                    b.getBytes(icmp + 8, target);
                    int type = b.getUnsignedByte(icmp);
                    if (type == NeighborDiscovery.NS && ethSrc == CLIENT_MAC && Gid.of(target).equals(SERVER)) {
                        c.clientNs = ByteBufUtil.getBytes(b);
                    } else if (type == NeighborDiscovery.NA && ethSrc == SERVER_MAC && Gid.of(target).equals(SERVER)) {
                        c.serverNa = ByteBufUtil.getBytes(b);
                    } else if (type == NeighborDiscovery.NS && ethSrc == SERVER_MAC && Gid.of(target).equals(CLIENT)) {
                        c.serverNs = ByteBufUtil.getBytes(b);
                    } else if (type == NeighborDiscovery.NA && ethSrc == CLIENT_MAC && Gid.of(target).equals(CLIENT)) {
                        c.clientNa = ByteBufUtil.getBytes(b);
                    }
                }
            }
        } finally {
            records.forEach(CaptureRecord::release);
        }
        assertNotNull(c.clientNs, "the client's solicitation for fd77::10");
        assertNotNull(c.serverNa, "the server's advertisement");
        assertNotNull(c.serverNs, "the server's solicitation for fd77::11");
        assertNotNull(c.clientNa, "the client's advertisement");
        assertFalse(c.requests.isEmpty());
        assertFalse(c.responses.isEmpty());
        return c;
    }

    private static void inject(RxeReplayTest.ScriptedPort port, byte[] frame) {
        port.receiver.onFrame(port, Unpooled.directBuffer(frame.length).writeBytes(frame));
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    @Test
    void asTheServerItAnswersLikeLinuxByteForByte() {
        Capture c = load();
        VirtualTimeScheduler sched = new VirtualTimeScheduler();
        RxeReplayTest.ScriptedPort port = new RxeReplayTest.ScriptedPort();
        SoftNic nic = SoftNic.builder().name("server").mac(SERVER_MAC).ipv4("10.77.0.10").ipv6("fd77::10")
                .scheduler(sched).port(port).build();

        inject(port, c.clientNs);
        sched.runUntilIdle();
        assertEquals(1, port.sent.size(), "one advertisement");
        assertEquals(hex(c.serverNa), hex(port.sent.get(0)), "the neighbour advertisement Linux sent");
        port.sent.clear();

        ParsedFrame f = new ParsedFrame();
        f.parse(Unpooled.wrappedBuffer(c.requests.get(0)));
        int firstPsn = f.psn();
        ParsedFrame g = new ParsedFrame();
        g.parse(Unpooled.wrappedBuffer(c.responses.get(0)));
        ProtectionDomain pd = nic.allocPd();
        CompletionQueue cq = nic.createCq(1024);
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, new QpCaps(64, 512, 1, 1, 0, false));
        assertEquals(qp.qpn(), f.destQp());
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv6(CLIENT, nic.gidIndex(SERVER))).pathMtu(1024)
                .destQpn(g.destQp()).rqPsn(firstPsn).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
        MemoryRegion recv = pd.registerMr(new byte[8192], 0x1000, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < 512; i++) {
            qp.postRecv(new RecvWr(i, Sge.of(recv)));
        }
        sched.runUntilIdle();
        inject(port, c.requests.get(0));
        sched.runFor(1_000_000L);
        assertEquals(1, port.sent.size(), "the first ACK waits behind a solicitation");
        assertEquals(hex(c.serverNs), hex(port.sent.get(0)), "the neighbour solicitation Linux sent");
        port.sent.clear();
        inject(port, c.clientNa);
        sched.runUntilIdle();
        for (byte[] req : c.requests.subList(1, c.requests.size())) {
            inject(port, req);
            sched.runUntilIdle();
        }
        assertEquals(c.responses.size(), port.sent.size(), "number of responses");
        for (int i = 0; i < c.responses.size(); i++) {
            assertArrayEquals(c.responses.get(i), port.sent.get(i), "response " + i + ": rxe "
                    + hex(c.responses.get(i)) + "\n rocelab " + hex(port.sent.get(i)));
        }
        assertEquals(0, nic.counters().get(NicCounter.DROP_BAD_ICRC), "rxe's IPv6 ICRCs verify");
        assertEquals(1, nic.counters().get(NicCounter.ND_SOLICITS_SENT));
        nic.close();
        sched.runUntilIdle();
    }

    @Test
    void asTheClientItSolicitsLikeLinuxByteForByte() {
        Capture c = load();
        VirtualTimeScheduler sched = new VirtualTimeScheduler();
        RxeReplayTest.ScriptedPort port = new RxeReplayTest.ScriptedPort();
        SoftNic nic = SoftNic.builder().name("client").mac(CLIENT_MAC).ipv4("10.77.0.11").ipv6("fd77::11")
                .scheduler(sched).port(port).build();
        ProtectionDomain pd = nic.allocPd();
        CompletionQueue cq = nic.createCq(16);
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, QpCaps.defaults());
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv6(SERVER, nic.gidIndex(CLIENT))).pathMtu(1024)
                .destQpn(0x11).rqPsn(0).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
        MemoryRegion mr = pd.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
        qp.postSend(SendWr.send(1, Sge.of(mr)));
        sched.runFor(1_000_000L);
        assertEquals(1, port.sent.size(), "the SEND waits behind one solicitation");
        assertEquals(hex(c.clientNs), hex(port.sent.get(0)), "the neighbour solicitation Linux sent");
        nic.close();
        sched.runUntilIdle();
    }
}
