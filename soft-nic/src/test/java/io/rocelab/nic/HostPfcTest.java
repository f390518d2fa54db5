package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PFC at the host (IEEE 802.1Qbb), in virtual time: NIC a runs two RC WRITE streams, one on
 * priority 3 (DSCP 26, the lossless class), one on priority 0; its link partner pauses priority 3.
 * Exactly priority 3's QP stops, once the NIC's response time has passed (IEEE 802.3 31B.3.7's 394
 * quanta at 100 Gb/s, 2,018 ns), until the pause time runs out (quanta of 512 bit times at the
 * 100 Gb/s link: 5.12 ns each, counted from the frame's arrival); priority 0 keeps its line share,
 * an XON resumes at once, and mlx5's counters say so. The NIC can be made to send PFC itself (the
 * rogue host of a storm).
 */
class HostPfcTest {
    private static final int IP_A = io.rocelab.codec.header.Ipv4.parse("10.0.0.1");
    private static final int IP_B = io.rocelab.codec.header.Ipv4.parse("10.0.0.2");
    private static final int DSCP_LOSSLESS = 26;
    private static final int MSG = 64 * 1024;
    /** IEEE 802.3 31B.3.7's 394 quanta at 100 Gb/s. */
    private static final long RESPONSE = 2_018;

    private final VirtualTimeScheduler time = new VirtualTimeScheduler();
    private final List<Sent> sentByA = new ArrayList<>();
    private final List<Sent> sentByB = new ArrayList<>();
    private InProcessLink link;
    private SoftNic a;
    private SoftNic b;

    /** One RoCE or PFC frame a NIC put on its wire: when, at which priority, what. */
    private record Sent(long at, int priority, FrameKind kind, int destQp, byte[] bytes) {
    }

    private final class Recorder extends ForwardingFramePort {
        private final List<Sent> log;
        private final ParsedFrame parsed = new ParsedFrame();

        Recorder(FramePort delegate, List<Sent> log) {
            super(delegate);
            this.log = log;
        }

        @Override
        public void send(ByteBuf frame) {
            if (parsed.parse(frame) == null && (parsed.kind() == FrameKind.ROCEV2 || parsed.kind() == FrameKind.PFC)) {
                int prio = parsed.kind() == FrameKind.PFC ? -1 : parsed.dscp() >> 3;
                log.add(new Sent(time.nanoTime(), prio, parsed.kind(),
                    parsed.kind() == FrameKind.ROCEV2 ? parsed.destQp() : -1, ByteBufUtil.getBytes(frame)));
            }
            delegate.send(frame);
        }
    }

    private final List<QueuePair> qpsA = new ArrayList<>();
    private final List<QueuePair> qpsB = new ArrayList<>();
    private CompletionQueue cqA;
    private MemoryRegion srcA;
    private MemoryRegion dstB;

    @BeforeEach
    void fabric() {
        link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(100).build(time);
        a = SoftNic.builder().name("a").mac("52:54:00:00:00:0a").ipv4(IP_A).activeMtu(4096).scheduler(time)
            .port(new Recorder(link.portA(), sentByA)).build();
        b = SoftNic.builder().name("b").mac("52:54:00:00:00:0b").ipv4(IP_B).activeMtu(4096).scheduler(time)
            .port(new Recorder(link.portB(), sentByB)).build();
        a.addNeighbor(IP_B, b.mac());
        b.addNeighbor(IP_A, a.mac());
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        cqA = a.createCq(4096);
        CompletionQueue cqB = b.createCq(4096);
        srcA = pdA.registerMr(new byte[MSG], 0x10000, AccessFlags.LOCAL_WRITE);
        dstB = pdB.registerMr(new byte[MSG], 0x90000, AccessFlags.ALL);
        for (int tc : new int[] {DSCP_LOSSLESS << 2, 0}) {
            QueuePair qa = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
            QueuePair qb = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
            connect(qa, qb, IP_B, tc);
            connect(qb, qa, IP_A, tc);
            qpsA.add(qa);
            qpsB.add(qb);
        }
    }

    private static void connect(QueuePair qp, QueuePair peer, int peerIp, int trafficClass) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp).withTrafficClass(trafficClass))
            .pathMtu(4096).destQpn(peer.qpn()).rqPsn(100).maxDestRdAtomic(1).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(100).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        time.runFor(10_000_000_000L);
    }

    private static ByteBuf pfc(int priority, int quanta, long srcMac) {
        ByteBuf f = Unpooled.buffer(60);
        f.writeZero(60);
        Ethernet.write(f, 0, MacAddress.PAUSE_MULTICAST, srcMac, EtherType.MAC_CONTROL);
        int[] q = new int[8];
        q[priority] = quanta;
        Pfc.write(f, Ethernet.LENGTH, 1 << priority, q);
        return f;
    }

    private void postWrites(int qpIndex, int count) {
        for (int i = 0; i < count; i++) {
            qpsA.get(qpIndex).postSend(SendWr.write(i, Sge.of(srcA), 0x90000, dstB.rkey()).signaled(true));
        }
    }

    private List<Sent> dataFrom(int qpIndex, long from, long to) {
        int dest = qpsB.get(qpIndex).qpn();
        return sentByA.stream().filter(s -> s.kind == FrameKind.ROCEV2 && s.destQp == dest && s.at >= from
            && s.at < to).toList();
    }

    @Test
    void aPauseStopsExactlyThePausedPrioritysQpsForThePauseTime() {
        postWrites(0, 20);
        postWrites(1, 20);
        time.runFor(20_000);
        assertFalse(dataFrom(0, 10_000, 20_000).isEmpty(), "priority 3 is sending");
        long pausedAt = time.nanoTime();
        // 0x2000 quanta x 512 bit times at 100 Gb/s = 41,943.04 ns
        link.portB().send(pfc(3, 0x2000, b.mac()));
        time.runFor(100_000);
        long pauseNanos = Pfc.quantaToNanos(0x2000, 100_000_000_000L);
        List<Sent> lossless = dataFrom(0, pausedAt, pausedAt + 200_000);
        // the PFC frame reaches a after its serialization and the 100 ns cable; a keeps sending for its
        // response time
        long arrived = pausedAt + 100 + 7;
        assertEquals(RESPONSE, a.port(1).pauseResponseNanos());
        assertFalse(dataFrom(0, arrived, arrived + RESPONSE).isEmpty(), "priority 3 went on for the response time");
        long firstAfter = lossless.stream().mapToLong(Sent::at).filter(t -> t >= arrived + RESPONSE).min()
            .orElseThrow();
        assertTrue(firstAfter >= arrived + pauseNanos, "priority 3 resumed at " + (firstAfter - arrived)
            + " ns, before the pause time " + pauseNanos + " ns ran out");
        assertTrue(firstAfter <= arrived + pauseNanos + 1_000, "priority 3 resumed when the pause ran out, not "
            + (firstAfter - arrived) + " ns after it");
        List<Sent> other = dataFrom(1, arrived + RESPONSE, arrived + pauseNanos);
        // priority 0 has the wire alone: a 4 KB frame every ~330 ns
        assertTrue(other.size() >= (pauseNanos - RESPONSE) / 400, "priority 0 kept sending while 3 was paused: "
            + other.size());
        assertEquals(1, a.counters().get(NicCounter.RX_PRIO3_PAUSE));
        assertEquals((pauseNanos - RESPONSE) / 1000, a.counters().get(NicCounter.RX_PRIO3_PAUSE_DURATION),
            "the time really paused, without the response time");
        assertEquals(0, a.counters().get(NicCounter.RX_PRIO0_PAUSE));
        assertTrue(qpsA.stream().allMatch(qp -> qp.state() == QpState.RTS));
        time.runFor(10_000_000);
        assertEquals(40, NicRig.drain(cqA).stream().filter(w -> w.status() == WcStatus.SUCCESS).count(),
            "every WRITE completed");
        assertEquals(0, a.counters().get(NicCounter.COMPLETER_RETRY_ERR), "nothing timed out meanwhile");
    }

    @Test
    void anXonResumesAtOnceAndCountsATransition() {
        postWrites(0, 20);
        time.runFor(20_000);
        link.portB().send(pfc(3, 0xFFFF, b.mac()));
        time.runFor(50_000);
        assertTrue(a.isPaused(3));
        long before = time.nanoTime();
        assertTrue(dataFrom(0, before - 40_000, before).isEmpty(), "paused");
        link.portB().send(pfc(3, 0, b.mac()));
        time.runFor(5_000);
        assertFalse(a.isPaused(3));
        assertFalse(dataFrom(0, before, before + 5_000).isEmpty(), "resumed by the XON");
        assertEquals(1, a.counters().get(NicCounter.RX_PRIO3_PAUSE_TRANSITION));
        assertEquals(2, a.counters().get(NicCounter.RX_PRIO3_PAUSE), "the XOFF and the XON");
        long paused = a.counters().get(NicCounter.RX_PRIO3_PAUSE_DURATION);
        assertEquals(47, paused, "50 us between XOFF and XON less the 2 us response: 47.98 us");
    }

    @Test
    void aNicCanBeSetToActOnAPauseAtOnce() {
        SoftNic c = SoftNic.builder().name("c").mac("52:54:00:00:00:0c").ipv4("10.0.0.3").scheduler(time)
            .port(InProcessLink.builder().name("c").rateGbps(25).build(time).portA())
            .pauseResponse(PauseResponse.INSTANT).build();
        SoftNic d = SoftNic.builder().name("d").mac("52:54:00:00:00:0d").ipv4("10.0.0.4").scheduler(time)
            .port(InProcessLink.builder().name("d").rateGbps(25).build(time).portA()).build();
        try {
            assertEquals(0, c.port(1).pauseResponseNanos());
            assertEquals(1_639, d.port(1).pauseResponseNanos(), "the default at 25 Gb/s: 80 quanta");
        } finally {
            c.close();
            d.close();
        }
    }

    @Test
    void aNicSendsPfcWhenToldAndStormsUntilStopped() {
        b.sendPfc(1 << 3, new int[] {0, 0, 0, 0x100, 0, 0, 0, 0});
        time.runFor(10_000);
        List<Sent> pfc = sentByB.stream().filter(s -> s.kind == FrameKind.PFC).toList();
        assertEquals(1, pfc.size());
        ByteBuf f = Unpooled.wrappedBuffer(pfc.get(0).bytes);
        assertEquals(60, f.readableBytes(), "padded to the minimum frame");
        assertEquals(MacAddress.PAUSE_MULTICAST, MacAddress.get(f, Ethernet.DST));
        assertEquals(1 << 3, Pfc.classEnableVector(f, Ethernet.LENGTH));
        assertEquals(0x100, Pfc.quanta(f, Ethernet.LENGTH, 3));
        assertEquals(1, b.counters().get(NicCounter.TX_PRIO3_PAUSE));
        assertEquals(1, a.counters().get(NicCounter.RX_PRIO3_PAUSE), "a honoured it");

        b.startPfcStorm(3);
        // the longest pause (65535 quanta, 335.5 us at 100 Gb/s) is refreshed every half of it
        time.runFor(2_000_000);
        b.stopPfcStorm();
        long storm = b.counters().get(NicCounter.TX_PRIO3_PAUSE) - 1;
        assertTrue(storm >= 11 && storm <= 13, "about 2 ms / 168 us pauses: " + storm);
        assertTrue(a.isPaused(3), "a is held while the storm lasts");
        time.runFor(1_000_000);
        assertEquals(storm + 1, b.counters().get(NicCounter.TX_PRIO3_PAUSE), "the storm stopped");
        assertFalse(a.isPaused(3), "the last pause ran out");
    }

    @Test
    void aPauseForAnotherAddressOrATruncatedOneIsCountedAndIgnored() {
        ByteBuf toOther = pfc(3, 0xFFFF, b.mac());
        MacAddress.set(toOther, Ethernet.DST, 0x0200_0000_0099L);
        link.portB().send(toOther);
        ByteBuf runt = pfc(3, 0xFFFF, b.mac()).capacity(Ethernet.LENGTH + 10);
        link.portB().send(runt);
        time.runFor(10_000);
        assertFalse(a.isPaused(3));
        assertEquals(0, a.counters().get(NicCounter.INTERNAL_ERRORS));
    }
}
