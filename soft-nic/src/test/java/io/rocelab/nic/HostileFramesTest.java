package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.mad.CmAttribute;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.cm.CmConnectParams;
import io.rocelab.nic.cm.CmEventType;
import io.rocelab.nic.cm.CmId;
import io.rocelab.nic.cm.CmState;
import io.rocelab.nic.cm.ConnectionManager;
import io.rocelab.nic.net.Icmpv6;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Frames from a peer on the same Ethernet that lie (an attacker computes valid ICRCs) never put
 * the NIC in the fatal state: every receive path outside the RC/UC transport (the dispatch in
 * {@code NicReceive.onFrame}, ARP, IPv6 neighbour discovery, QP1 and the connection manager's MAD
 * parsing, UD receive) is fed every truncation and byte mutation of real frames. Each frame is
 * delivered in a buffer whose capacity is exactly the frame, as a switch's flood copies are: a
 * read past the end of the frame then throws instead of reading stale bytes, which is how such a
 * read shows.
 */
class HostileFramesTest {
    private static final int IP_A = Ipv4.parse("10.77.2.11");
    private static final int IP_B = Ipv4.parse("10.77.2.10");
    private static final int UD_QKEY = 0x1111_1111;
    private static final CmConnectParams PARAMS = new CmConnectParams(0, 0, 7, 7);
    private static final long MS = 1_000_000L;

    /**
     * An ICMPv6 packet to the all-nodes group (ff02::1, which every NIC behind a switch gets a flood
     * copy of) with an IPv6 payload length of 0: 54 bytes, nothing after the IPv6 header. Neighbour discovery read the ICMPv6 type and code before it
     * looked at the length, past the end of the frame.
     */
    private static final String EMPTY_ICMPV6 = "33330000000102020202020286dd6000000000003afffe80000000000000"
            + "0000000000000000ff020000000000000000000000000001";

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final RawTap tapA;
    private final InjectingPort portB;
    private final SoftNic a;
    private final SoftNic b;

    HostileFramesTest() {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(25).propagationDelayNanos(500).seed(20)
                .build(sched);
        tapA = new RawTap(link.portA());
        portB = new InjectingPort(link.portB());
        a = SoftNic.builder().name("a").mac("52:54:00:79:00:01").ipv4(IP_A).ipv6("fd77::11").activeMtu(1024)
                .scheduler(sched).port(tapA).build();
        b = SoftNic.builder().name("b").mac("52:54:00:79:00:00").ipv4(IP_B).ipv6("fd77::10").activeMtu(1024)
                .scheduler(sched).port(portB).build();
    }

    @Test
    void theFiftyFourByteIcmpv6FrameIsDroppedAndCounted() {
        byte[] frame = HexFormat.of().parseHex(EMPTY_ICMPV6);
        assertEquals(54, frame.length);
        portB.inject(frame);
        sched.runFor(MS);
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS), "a remote frame is never an internal error");
        assertEquals(null, b.pollAsyncEvent(), "no IBV_EVENT_DEVICE_FATAL");
        assertEquals(1, b.counters().get(NicCounter.DROP_MALFORMED), "counted as malformed");
    }

    @Test
    void noTruncationOrMutationOfARealFrameReachesTheFatalState() {
        // b: a listener that accepts every request on a fresh QP, and a UD QP; a: the same on another port
        ConnectionManager cmB = ConnectionManager.start(b, 2);
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        List<CmId> acceptedByB = new ArrayList<>();
        cmB.listen(18515, e -> {
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                cmB.accept(e.id(), rcQp(b), PARAMS);
                acceptedByB.add(e.id());
            }
        });
        cmA.listen(18516, e -> {
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                cmA.accept(e.id(), rcQp(a), PARAMS);
            }
        });
        byte[] memB = new byte[64 * 2048];
        ProtectionDomain pdB = b.allocPd();
        MemoryRegion mrB = pdB.registerMr(memB, 0x10_0000L, AccessFlags.LOCAL_WRITE);
        QueuePair udB = udQp(b, pdB);
        QueuePair udA = udQp(a, a.allocPd());
        ProtectionDomain pdA = a.allocPd();
        MemoryRegion mrA = pdA.registerMr(new byte[512], 0x20_0000L, AccessFlags.LOCAL_WRITE);
        QueuePair udA2 = udQp(a, pdA);
        postReceives(udB, mrB, 64);

        // real frames of every kind a sends: ARP, neighbour discovery, CM MADs both ways, UD SENDs
        CmId first = cmA.connect(rcQp(a), IP_B, 18515, 0, PARAMS, e -> { });
        assertTrue(runUntil(() -> first.state() == CmState.ESTABLISHED, 1_000 * MS), "a connects to b");
        CmId back = cmB.connect(rcQp(b), IP_A, 18516, 0, PARAMS, e -> { });
        assertTrue(runUntil(() -> back.state() == CmState.ESTABLISHED, 1_000 * MS), "b connects to a");
        CmId refused = cmB.connect(rcQp(b), IP_A, 9999, 0, PARAMS, e -> { });
        assertTrue(runUntil(() -> refused.state() == CmState.REJECTED, 1_000 * MS), "a rejects a port nobody uses");
        cmB.disconnect(back);
        cmA.disconnect(first);
        sched.runFor(100 * MS);
        udA2.postSend(SendWr.send(1, Sge.of(mrA, 0, 300)).ud(AddressHandle.ipv4(IP_B), udB.qpn(), UD_QKEY));
        udA2.postSend(SendWr.send(2, Sge.of(mrA, 0, 40)).ud(AddressHandle.ipv6(b.gid(SoftNic.GID_INDEX_FIRST_IPV6),
                SoftNic.GID_INDEX_FIRST_IPV6), udB.qpn(), UD_QKEY));
        sched.runFor(100 * MS);
        // b asks for a's IPv6 address: a answers with a neighbour advertisement
        ProtectionDomain pdB2 = b.allocPd();
        MemoryRegion mrB2 = pdB2.registerMr(new byte[64], 0x30_0000L, AccessFlags.LOCAL_WRITE);
        udQp(b, pdB2).postSend(SendWr.send(3, Sge.of(mrB2)).ud(AddressHandle.ipv6(a.gid(SoftNic.GID_INDEX_FIRST_IPV6),
                SoftNic.GID_INDEX_FIRST_IPV6), udA.qpn(), UD_QKEY));
        sched.runFor(100 * MS);

        List<byte[]> templates = new ArrayList<>(tapA.sent);
        assertTrue(templates.stream().anyMatch(f -> RawTap.etherType(f) == 0x0806), "an ARP frame");
        assertTrue(templates.stream().filter(f -> icmpv6Type(f) == 135 || icmpv6Type(f) == 136).count() >= 2,
                "a neighbour solicitation and an advertisement");
        assertTrue(templates.stream().filter(f -> madAttribute(f) >= 0).count() >= 6,
                "REQ, RTU, REP, REJ, DREQ and DREP");
        assertTrue(b.counters().get(NicCounter.RDMA_RECVS) >= 2, "the UD SENDs arrived");
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS));

        SplitMix64 random = new SplitMix64(20);
        long injected = 0;
        for (byte[] t : templates) {
            List<byte[]> hostile = new ArrayList<>();
            for (int n = 0; n < t.length; n++) {
                hostile.add(java.util.Arrays.copyOf(t, n)); // lying lengths: the frame ends early
                byte[] cut = shortened(t, n);
                if (cut != null) {
                    hostile.add(cut); // consistent lengths, checksums and ICRC, just short
                }
            }
            int mad = madOffset(t);
            for (int i = 12; i < t.length; i++) {
                for (int v : new int[] {0x00, 0xFF, (int) (random.nextLong() & 0xFF)}) {
                    byte[] m = t.clone();
                    if (mad >= 0 && madAttribute(t) == CmAttribute.REQ.id()) {
                        // a REQ from a new communication ID, or b takes it for a repeat of the first one
                        Unpooled.wrappedBuffer(m).setInt(mad + MadHeader.LENGTH, (int) random.nextLong());
                    }
                    m[i] = (byte) v;
                    hostile.add(reseal(m));
                }
            }
            if (mad >= 0) {
                // every CM message with the body of another: MRA, LAP, SIDR, ... with a REQ's fields
                for (CmAttribute attr : CmAttribute.values()) {
                    byte[] m = t.clone();
                    m[mad + MadHeader.ATTRIBUTE_ID] = 0;
                    m[mad + MadHeader.ATTRIBUTE_ID + 1] = (byte) attr.id();
                    hostile.add(reseal(m));
                }
            }
            for (byte[] h : hostile) {
                portB.inject(h);
                injected++;
                sched.runFor(MS);
                if (udB.rq().size() < 16) {
                    postReceives(udB, mrB, 48);
                }
                assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS),
                        "internal error after " + HexFormat.of().formatHex(h));
            }
            tapA.sent.clear();
        }
        assertTrue(injected > 10_000, "frames injected: " + injected);
        for (AsyncEvent e; (e = b.pollAsyncEvent()) != null; ) {
            assertTrue(e.type() != AsyncEventType.DEVICE_FATAL, "b raised " + e);
        }
        assertEquals(0, a.counters().get(NicCounter.INTERNAL_ERRORS), "nor did b's answers hurt a");

        // and b still works: a connects and a UD SEND arrives
        long recvs = b.counters().get(NicCounter.RDMA_RECVS);
        CmId again = cmA.connect(rcQp(a), IP_B, 18515, 0, PARAMS, e -> { });
        assertTrue(runUntil(() -> again.state() == CmState.ESTABLISHED, 200_000 * MS), "connects after the attack");
        udA2.postSend(SendWr.send(4, Sge.of(mrA, 0, 64)).ud(AddressHandle.ipv4(IP_B), udB.qpn(), UD_QKEY));
        assertTrue(runUntil(() -> b.counters().get(NicCounter.RDMA_RECVS) > recvs, 100 * MS), "a UD SEND arrives");
    }

    private boolean runUntil(BooleanSupplier done, long maxNanos) {
        long end = sched.nanoTime() + maxNanos;
        while (!done.getAsBoolean()) {
            if (sched.isIdle() || sched.nextEventTime() > end) {
                return done.getAsBoolean();
            }
            sched.runNext();
        }
        return true;
    }

    private static QueuePair rcQp(SoftNic nic) {
        ProtectionDomain pd = nic.allocPd();
        CompletionQueue cq = nic.createCq(16);
        QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, new QpCaps(4, 4, 1, 1, 0, false));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.LOCAL_WRITE));
        return qp;
    }

    private static QueuePair udQp(SoftNic nic, ProtectionDomain pd) {
        CompletionQueue cq = nic.createCq(4096);
        QueuePair qp = nic.createQp(pd, QpType.UD, cq, cq, QpCaps.defaults());
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(UD_QKEY));
        qp.modify(new QpAttr().state(QpState.RTR));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
        return qp;
    }

    private static void postReceives(QueuePair qp, MemoryRegion mr, int n) {
        NicRig.drain(qp.recvCq());
        for (int i = 0; i < n; i++) {
            qp.postRecv(new RecvWr(i, Sge.of(mr, (i % 64) * 2048, 2048)));
        }
    }

    /**
     * {@code t} cut to {@code n} bytes with its IP (and UDP) lengths saying so, its ICMPv6 checksum
     * and ICRC recomputed: a frame a peer could really send. Null when the cut leaves no IP payload.
     */
    private static byte[] shortened(byte[] t, int n) {
        ParsedFrame f = new ParsedFrame();
        if (f.parse(Unpooled.wrappedBuffer(t)) != null || f.ipVersion() == 0) {
            return null;
        }
        int l3 = f.l3Offset();
        int l4 = f.l4Offset();
        if (n < l4) {
            return null;
        }
        byte[] c = java.util.Arrays.copyOf(t, n);
        ByteBuf b = Unpooled.wrappedBuffer(c);
        if (f.ipVersion() == 4) {
            b.setShort(l3 + Ipv4.TOTAL_LENGTH, n - l3);
        } else {
            b.setShort(l3 + Ipv6.PAYLOAD_LENGTH, n - l4);
        }
        if (f.l4Protocol() == Ipv4.PROTO_UDP && n - l4 >= Udp.LENGTH) {
            b.setShort(l4 + Udp.LENGTH_FIELD, n - l4);
        }
        return reseal(c);
    }

    /** Recomputes what a sender would: the ICMPv6 checksum of an ICMPv6 frame, the ICRC of a RoCEv2 one. */
    private static byte[] reseal(byte[] m) {
        ParsedFrame f = new ParsedFrame();
        ByteBuf b = Unpooled.wrappedBuffer(m);
        if (f.parse(b) != null) {
            return m;
        }
        if (f.kind() == FrameKind.IPV6 && f.l4Protocol() == Icmpv6.NEXT_HEADER) {
            int len = Ipv6.payloadLength(b, f.l3Offset());
            if (len >= 4) {
                b.setShort(f.l4Offset() + 2, 0);
                b.setShort(f.l4Offset() + 2, Icmpv6.checksum(b, f.l3Offset(), f.l4Offset(), len));
            }
        } else if (f.isRoce()) {
            new Icrc().fill(f);
        }
        return m;
    }

    private static int icmpv6Type(byte[] frame) {
        ParsedFrame f = new ParsedFrame();
        ByteBuf b = Unpooled.wrappedBuffer(frame);
        return f.parse(b) == null && f.kind() == FrameKind.IPV6 && f.l4Protocol() == Icmpv6.NEXT_HEADER
                && f.end() > f.l4Offset() ? b.getUnsignedByte(f.l4Offset()) : -1;
    }

    /** Where the MAD of a UD SEND to QP1 starts, or -1. */
    private static int madOffset(byte[] frame) {
        ParsedFrame f = new ParsedFrame();
        return f.parse(Unpooled.wrappedBuffer(frame)) == null && f.isRoce() && f.destQp() == SoftNic.GSI_QPN
                && f.payloadLength() >= MadHeader.MAD_SIZE ? f.payloadOffset() : -1;
    }

    private static int madAttribute(byte[] frame) {
        int mad = madOffset(frame);
        return mad < 0 ? -1 : MadHeader.attributeId(Unpooled.wrappedBuffer(frame), mad);
    }
}
