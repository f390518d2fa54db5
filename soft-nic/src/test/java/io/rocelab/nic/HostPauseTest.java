package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pause;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.link.InProcessLink;
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
 * 802.3x PAUSE at the host (IEEE 802.3 Annex 31B), in virtual time, on the same two streams as
 * {@link HostPfcTest} (priority 3 and priority 0 from NIC a): a NIC in {@link FlowControlMode#PAUSE}
 * stops its whole port, both priorities, for the pause time once the response bound has passed; a
 * PAUSE of 0 resumes at once; mlx5's {@code rx_pause_ctrl_phy}, {@code rx_global_pause_duration}
 * and {@code rx_global_pause_transition} count it. A NIC in PFC mode counts a PAUSE and does not act
 * on it. A PAUSE NIC sends PAUSE where a PFC one sends PFC ({@code tx_pause_ctrl_phy}).
 */
class HostPauseTest {
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
            if (parsed.parse(frame) == null && (parsed.kind() == FrameKind.ROCEV2 || parsed.kind() == FrameKind.PFC
                || parsed.kind() == FrameKind.PAUSE)) {
                int prio = parsed.kind() != FrameKind.ROCEV2 ? -1 : parsed.dscp() >> 3;
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
            .port(new Recorder(link.portA(), sentByA)).flowControl(FlowControlMode.PAUSE).build();
        b = SoftNic.builder().name("b").mac("52:54:00:00:00:0b").ipv4(IP_B).activeMtu(4096).scheduler(time)
            .port(new Recorder(link.portB(), sentByB)).flowControl(FlowControlMode.PAUSE).build();
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

    private static ByteBuf pause(int quanta, long srcMac) {
        ByteBuf f = Unpooled.buffer(60);
        Pause.writeFrame(f, srcMac, quanta);
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
    void aPauseStopsEveryPriorityForThePauseTime() {
        postWrites(0, 20);
        postWrites(1, 20);
        time.runFor(20_000);
        assertFalse(dataFrom(0, 10_000, 20_000).isEmpty(), "priority 3 is sending");
        assertFalse(dataFrom(1, 10_000, 20_000).isEmpty(), "priority 0 is sending");
        long pausedAt = time.nanoTime();
        // 0x2000 quanta x 512 bit times at 100 Gb/s = 41,943.04 ns
        link.portB().send(pause(0x2000, b.mac()));
        time.runFor(100_000);
        long pauseNanos = Pfc.quantaToNanos(0x2000, 100_000_000_000L);
        long arrived = pausedAt + 100 + 7;
        for (int qp = 0; qp < 2; qp++) {
            assertTrue(dataFrom(qp, arrived + RESPONSE, arrived + pauseNanos).isEmpty(),
                "priority " + (qp == 0 ? 3 : 0) + " is held by the PAUSE");
            long firstAfter = dataFrom(qp, arrived + RESPONSE, pausedAt + 200_000).stream().mapToLong(Sent::at)
                .min().orElseThrow();
            assertTrue(firstAfter >= arrived + pauseNanos && firstAfter <= arrived + pauseNanos + 1_000,
                "resumed when the pause ran out: " + (firstAfter - arrived) + " ns after it arrived");
        }
        assertFalse(dataFrom(0, arrived, arrived + RESPONSE).isEmpty() && dataFrom(1, arrived, arrived + RESPONSE)
            .isEmpty(), "the port went on for the response time");
        assertEquals(1, a.counters().get(NicCounter.RX_PAUSE_CTRL_PHY));
        assertEquals((pauseNanos - RESPONSE) / 1000, a.counters().get(NicCounter.RX_GLOBAL_PAUSE_DURATION),
            "the time really paused, without the response time");
        assertEquals(0, a.counters().get(NicCounter.RX_PRIO3_PAUSE), "no PFC counted");
        time.runFor(10_000_000);
        assertEquals(40, NicRig.drain(cqA).stream().filter(w -> w.status() == WcStatus.SUCCESS).count(),
            "every WRITE completed");
    }

    @Test
    void aPauseOfZeroResumesAtOnceAndCountsATransition() {
        postWrites(0, 20);
        postWrites(1, 20);
        time.runFor(20_000);
        link.portB().send(pause(0xFFFF, b.mac()));
        time.runFor(50_000);
        assertTrue(a.isPaused(0) && a.isPaused(3) && a.isPaused(7), "every priority");
        long before = time.nanoTime();
        assertTrue(dataFrom(0, before - 40_000, before).isEmpty() && dataFrom(1, before - 40_000, before).isEmpty());
        link.portB().send(pause(0, b.mac()));
        time.runFor(5_000);
        assertFalse(a.isPaused(3));
        assertFalse(dataFrom(1, before, before + 5_000).isEmpty(), "resumed by the PAUSE of 0");
        assertEquals(1, a.counters().get(NicCounter.RX_GLOBAL_PAUSE_TRANSITION));
        assertEquals(2, a.counters().get(NicCounter.RX_PAUSE_CTRL_PHY), "the pause and the resume");
        assertEquals(47, a.counters().get(NicCounter.RX_GLOBAL_PAUSE_DURATION),
            "50 us between them less the 2 us response: 47.98 us");
    }

    /** A port running 802.3x PAUSE has PFC on no priority: a PFC frame is counted and holds nothing back. */
    @Test
    void aPauseNicCountsPfcAndGoesOn() {
        postWrites(0, 20);
        postWrites(1, 20);
        time.runFor(20_000);
        long at = time.nanoTime();
        ByteBuf pfc = Unpooled.buffer(60);
        pfc.writerIndex(60);
        pfc.setZero(0, 60);
        Ethernet.write(pfc, 0, MacAddress.PAUSE_MULTICAST, b.mac(), io.rocelab.codec.header.EtherType.MAC_CONTROL);
        int[] quanta = new int[8];
        quanta[3] = 0xFFFF;
        quanta[0] = 0xFFFF;
        Pfc.write(pfc, Ethernet.LENGTH, 0x09, quanta);
        link.portB().send(pfc);
        time.runFor(50_000);
        assertFalse(dataFrom(0, at + RESPONSE + 1_000, at + 50_000).isEmpty(), "priority 3 goes on");
        assertFalse(dataFrom(1, at + RESPONSE + 1_000, at + 50_000).isEmpty(), "priority 0 goes on");
        assertEquals(1, a.counters().get(NicCounter.RX_PRIO3_PAUSE), "the MAC counts it");
        assertEquals(2, a.counters().get(NicCounter.RX_PFC_IGNORED), "both priorities not acted on");
        assertEquals(0, a.counters().get(NicCounter.RX_PAUSE_CTRL_PHY));
    }

    @Test
    void aNicRunningPfcCountsAPauseAndGoesOn() {
        SoftNic c = SoftNic.builder().name("c").mac("52:54:00:00:00:0c").ipv4("10.0.0.3").scheduler(time)
            .port(InProcessLink.builder().name("c").rateGbps(100).build(time).portA()).build();
        InProcessLink cd = InProcessLink.builder().name("c-d").rateGbps(100).build(time);
        SoftNic pfcNic = SoftNic.builder().name("p").mac("52:54:00:00:00:0e").ipv4("10.0.0.5").scheduler(time)
            .port(cd.portA()).build();
        try {
            cd.portB().send(pause(0xFFFF, 0x0200_0000_0077L));
            time.runFor(10_000);
            assertEquals(1, pfcNic.counters().get(NicCounter.RX_PAUSE_CTRL_PHY));
            assertFalse(pfcNic.isPaused(0), "PFC mode: global pause is off");
        } finally {
            c.close();
            pfcNic.close();
        }
    }

    @Test
    void aPauseNicSendsPauseWhereAPfcNicSendsPfcAndStormsWithIt() {
        b.sendPfc(1 << 3, new int[] {0, 0, 0, 0x100, 0, 0, 0, 0});
        time.runFor(10_000);
        assertTrue(sentByB.stream().noneMatch(s -> s.kind == FrameKind.PFC), "no PFC from a PAUSE port");
        List<Sent> pauses = sentByB.stream().filter(s -> s.kind == FrameKind.PAUSE).toList();
        assertEquals(1, pauses.size());
        ByteBuf f = Unpooled.wrappedBuffer(pauses.get(0).bytes);
        assertEquals(60, f.readableBytes(), "padded to the minimum frame");
        assertEquals(MacAddress.PAUSE_MULTICAST, MacAddress.get(f, Ethernet.DST));
        assertEquals(Pause.OPCODE_PAUSE, f.getUnsignedShort(Ethernet.LENGTH));
        assertEquals(0x100, Pause.quanta(f, Ethernet.LENGTH));
        assertEquals(1, b.counters().get(NicCounter.TX_PAUSE_CTRL_PHY));
        assertEquals(0, b.counters().get(NicCounter.TX_PRIO3_PAUSE));
        assertEquals(1, a.counters().get(NicCounter.RX_PAUSE_CTRL_PHY), "a received it");

        postWrites(1, 200);
        b.startPfcStorm(3);
        time.runFor(2_000_000);
        assertTrue(a.isPaused(0), "a storm of PAUSE holds every priority, 0 included");
        long stormAt = time.nanoTime();
        b.stopPfcStorm();
        long storm = b.counters().get(NicCounter.TX_PAUSE_CTRL_PHY) - 1;
        assertTrue(storm >= 11 && storm <= 13, "about 2 ms / 168 us pauses: " + storm);
        assertTrue(dataFrom(1, stormAt - 1_500_000, stormAt).isEmpty(), "priority 0 held by the storm");
        time.runFor(1_000_000);
        assertFalse(a.isPaused(0), "the last pause ran out");
        assertFalse(dataFrom(1, stormAt, time.nanoTime()).isEmpty(), "and priority 0 sends again");
    }
}
