package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * DCQCN between two soft NICs in virtual time, with a "switch" that marks every RoCE packet from
 * a to b with ECN CE: b's notification point answers with CNPs (ConnectX's CNP, at most one per QP
 * per np_min_time_between_cnps), a's reaction point acts on them and paces the QP below the line
 * rate. Without DCQCN the packets are not ECN-capable and CNPs are ignored.
 */
class DcqcnEndToEndTest {
    private static final int IP_A = Ipv4.parse("10.0.0.1");
    private static final int IP_B = Ipv4.parse("10.0.0.2");
    private static final int MSG = 64 * 1024;
    private static final double LINE = 100e9;

    private final VirtualTimeScheduler time = new VirtualTimeScheduler();

    /** What crossed the wire: the time and the bytes, per direction. */
    private record Frame(long at, byte[] bytes) {
    }

    private final class Marking extends ForwardingFramePort {
        final List<Frame> seen = new ArrayList<>();
        final boolean mark;
        private final ParsedFrame parsed = new ParsedFrame();

        Marking(FramePort delegate, boolean mark) {
            super(delegate);
            this.mark = mark;
        }

        @Override
        public void send(ByteBuf frame) {
            if (parsed.parse(frame) == null && parsed.kind() == FrameKind.ROCEV2) {
                if (mark && parsed.ipVersion() == 4) {
                    Ipv4.setEcn(frame, parsed.l3Offset(), 3); // CE; the ICRC masks the TOS byte
                }
                seen.add(new Frame(time.nanoTime(), ByteBufUtil.getBytes(frame)));
            }
            delegate.send(frame);
        }
    }

    private final class Pair implements AutoCloseable {
        final Marking aToB;
        final Marking bToA;
        final SoftNic a;
        final SoftNic b;
        final QueuePair qa;
        final QueuePair qb;
        final MemoryRegion src;
        final MemoryRegion dst;
        final CompletionQueue cqA;

        Pair(boolean markCe, UnaryOperator<SoftNic.Builder> cc) {
            InProcessLink link = InProcessLink.builder().rateGbps(100).propagationDelayNanos(1_000).build(time);
            aToB = new Marking(link.portA(), markCe);
            bToA = new Marking(link.portB(), false);
            a = cc.apply(SoftNic.builder().name("a").mac("52:54:00:00:00:0a").ipv4(IP_A).activeMtu(4096)
                .scheduler(time).port(aToB)).build();
            b = cc.apply(SoftNic.builder().name("b").mac("52:54:00:00:00:0b").ipv4(IP_B).activeMtu(4096)
                .scheduler(time).port(bToA)).build();
            a.addNeighbor(IP_B, b.mac());
            b.addNeighbor(IP_A, a.mac());
            ProtectionDomain pdA = a.allocPd();
            ProtectionDomain pdB = b.allocPd();
            cqA = a.createCq(8192);
            CompletionQueue cqB = b.createCq(8192);
            qa = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
            qb = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
            NicRig.connect(qa, qb, IP_B, 7, 9, QpType.RC, 4096, 14, 7, 7, 12);
            NicRig.connect(qb, qa, IP_A, 9, 7, QpType.RC, 4096, 14, 7, 7, 12);
            src = pdA.registerMr(new byte[MSG], 0x10000, AccessFlags.LOCAL_WRITE);
            dst = pdB.registerMr(new byte[MSG], 0x90000, AccessFlags.ALL);
        }

        void write(int n) {
            for (int i = 0; i < n; i++) {
                qa.postSend(SendWr.write(i, Sge.of(src), 0x90000, dst.rkey()).signaled(true));
            }
        }

        List<Frame> cnps() {
            return bToA.seen.stream().filter(f -> (f.bytes[42] & 0xFF) == Opcode.CNP_CODE).toList();
        }

        @Override
        public void close() {
            a.close();
            b.close();
            time.runFor(10_000_000_000L);
        }
    }

    private static final UnaryOperator<SoftNic.Builder> DCQCN = nb -> nb.dcqcn(DcqcnParams.defaults());

    @Test
    void ceMarkedPacketsBringCnpsAtMostOnePerQpPerMinimumTime() {
        try (Pair p = new Pair(true, DCQCN)) {
            p.write(200);
            time.runFor(2_000_000);
            List<Frame> cnps = p.cnps();
            assertTrue(cnps.size() > 10, "CNPs came back: " + cnps.size());
            for (int i = 1; i < cnps.size(); i++) {
                long gap = cnps.get(i).at - cnps.get(i - 1).at;
                assertTrue(gap >= 4_000, "CNPs " + i + " and " + (i - 1) + " are " + gap + " ns apart, less than "
                    + "np_min_time_between_cnps (4 us)");
            }
            assertEquals(cnps.size(), p.b.counters().get(NicCounter.NP_CNP_SENT));
            long marked = p.b.counters().get(NicCounter.NP_ECN_MARKED_ROCE_PACKETS);
            assertTrue(marked > cnps.size(), "more marked packets (" + marked + ") than CNPs");
            assertEquals(cnps.size(), p.a.counters().get(NicCounter.RP_CNP_HANDLED), "a acted on every CNP");
            assertEquals(0, p.a.counters().get(NicCounter.RP_CNP_IGNORED));
        }
    }

    @Test
    void theReactionPointSlowsTheQpBelowTheLineRate() {
        try (Pair p = new Pair(true, DCQCN)) {
            p.write(400);
            time.runFor(500_000);
            double rate = p.qa.currentRateBitsPerSecond();
            assertTrue(rate < 0.5 * LINE, "Rc after 500 us of CNPs: " + rate / 1e9 + " Gb/s");
            // the packets of the last 100 us left no faster than that rate (wire bytes + 24 per frame)
            long now = time.nanoTime();
            long bytes = p.aToB.seen.stream().filter(f -> f.at >= now - 100_000).mapToLong(f -> f.bytes.length + 24).sum();
            double sent = bytes * 8 / 100e-6;
            assertTrue(sent < 1.2 * Math.max(rate, p.qa.currentRateBitsPerSecond()) + 1e9, "sent at " + sent / 1e9
                + " Gb/s with Rc " + rate / 1e9);
        }
    }

    @Test
    void theCnpIsConnectXsCnp() {
        try (Pair p = new Pair(true, DCQCN)) {
            p.write(4);
            time.runFor(200_000);
            byte[] cnp = p.cnps().get(0).bytes;
            ByteBuf f = Unpooled.wrappedBuffer(cnp);
            ParsedFrame parsed = new ParsedFrame();
            assertEquals(null, parsed.parse(f));
            assertTrue(new Icrc().verify(parsed), "ICRC good");
            assertEquals(Opcode.CNP, parsed.opcode());
            int bth = parsed.bthOffset();
            assertEquals(1, Bth.becn(f, bth), "BECN");
            assertEquals(0xFFFF, Bth.pkey(f, bth));
            assertEquals(p.qa.qpn(), parsed.destQp(), "to the QP whose packet was marked");
            assertEquals(0, parsed.psn());
            assertEquals(0, Bth.ackReq(f, bth));
            assertEquals(48, parsed.dscp(), "np_cnp_dscp");
            assertEquals(2, parsed.ecn(), "ECT(0), as the ConnectX-4 Lx CNP");
            assertEquals(0, f.getUnsignedShort(parsed.udpOffset()), "UDP source port 0, as the ConnectX-4 Lx CNP");
            assertEquals(74, cnp.length, "the 74-byte CNP of the golden vectors");
            for (int i = bth + Bth.LENGTH; i < bth + Bth.LENGTH + 16; i++) {
                assertEquals(0, cnp[i], "reserved byte " + i);
            }
            RoceFrame decoded = RoceFrame.decode(parsed);
            assertEquals(Opcode.CNP, decoded.opcode());
        }
    }

    @Test
    void dcqcnTrafficIsEcnCapableAndWithoutItTheWireBytesAreRxes() {
        try (Pair on = new Pair(false, DCQCN)) {
            on.write(1);
            time.runFor(100_000);
            assertEquals(2, new ParsedFrameView(on.aToB.seen.get(0).bytes).ecn(), "ECT(0) with DCQCN");
        }
        try (Pair off = new Pair(false, UnaryOperator.identity())) {
            off.write(1);
            time.runFor(100_000);
            assertEquals(0, new ParsedFrameView(off.aToB.seen.get(0).bytes).ecn(), "Not-ECT as rxe sends");
        }
    }

    /**
     * A QP's bytes sent are the bytes of the RoCE frames its link carried (what the lab's flow-rate
     * plot draws), and its congestion rate is DCQCN's Rc; without congestion control, NaN.
     */
    @Test
    void aQpCountsTheFrameBytesItSentAndReportsItsCongestionRate() {
        try (Pair p = new Pair(true, DCQCN)) {
            p.write(50);
            time.runFor(1_000_000);
            long frames = p.aToB.seen.stream().mapToLong(f -> f.bytes.length).sum();
            assertTrue(frames > 10 * 4096, "frames went out: " + frames);
            assertEquals(frames, p.qa.bytesSent());
            double rc = p.qa.congestionRateBitsPerSecond();
            assertTrue(rc < 0.5 * LINE, "cut by the CNPs: " + rc / 1e9 + " Gb/s");
            assertEquals(p.qa.currentRateBitsPerSecond(), rc, "no rate limit of its own: the QP sends at Rc");
        }
        try (Pair p = new Pair(false, UnaryOperator.identity())) {
            p.write(5);
            time.runFor(1_000_000);
            assertTrue(Double.isNaN(p.qa.congestionRateBitsPerSecond()));
            long frames = p.aToB.seen.stream().mapToLong(f -> f.bytes.length).sum();
            assertTrue(frames > 5L * MSG, "the five WRITEs and their headers: " + frames);
            assertEquals(frames, p.qa.bytesSent());
        }
    }

    @Test
    void withoutCongestionControlACnpIsCountedAndIgnored() {
        try (Pair p = new Pair(true, UnaryOperator.identity())) {
            p.write(10);
            time.runFor(1_000_000);
            // b answers CE marks with CNPs whatever a does; a has no reaction point
            long cnps = p.b.counters().get(NicCounter.NP_CNP_SENT);
            assertTrue(cnps > 0);
            assertEquals(cnps, p.a.counters().get(NicCounter.RP_CNP_IGNORED));
            assertEquals(0, p.a.counters().get(NicCounter.RP_CNP_HANDLED));
            assertEquals(10, NicRig.drain(p.cqA).size(), "every WRITE completed at the line rate");
        }
    }

    /** The ECN bits of a frame's IPv4 header. */
    private record ParsedFrameView(byte[] bytes) {
        int ecn() {
            return bytes[15] & 3;
        }
    }
}
