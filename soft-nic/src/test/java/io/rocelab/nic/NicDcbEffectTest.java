package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxApp;
import io.rocelab.codec.lldp.DcbxPfc;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.dcb.DcbSettings;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The NIC's DCB settings on its data path, in virtual time: a pause for a priority whose PFC is off
 * (mlnx_qos --pfc) is counted and not acted on; trusting PCP puts an untagged DSCP 26 flow on
 * priority 0, where a pause on 3 does not stop it; DCBX's adoption of a switch's settings moves a
 * running QP to the switch's lossless priority, and back when the switch is gone.
 */
class NicDcbEffectTest {
    private static final int IP_A = io.rocelab.codec.header.Ipv4.parse("10.0.0.1");
    private static final int IP_B = io.rocelab.codec.header.Ipv4.parse("10.0.0.2");
    private static final int MSG = 64 * 1024;

    private final VirtualTimeScheduler time = new VirtualTimeScheduler();
    /** The times and PCPs (-1 untagged) of a's RoCE data frames. */
    private final List<long[]> sent = new ArrayList<>();
    private InProcessLink link;
    private SoftNic a;
    private SoftNic b;
    private QueuePair qa;
    private QueuePair qb;
    private MemoryRegion src;
    private MemoryRegion dst;

    private void fabric(UnaryOperator<SoftNic.Builder> nicA, int vlan) {
        link = InProcessLink.builder().name("a-b").rateGbps(100).propagationDelayNanos(100).build(time);
        FramePort recorder = new ForwardingFramePort(link.portA()) {
            private final ParsedFrame parsed = new ParsedFrame();

            @Override
            public void send(ByteBuf frame) {
                if (parsed.parse(frame) == null && parsed.kind() == FrameKind.ROCEV2 && frame.readableBytes() > 1000) {
                    boolean tagged = frame.getUnsignedShort(Ethernet.ETHER_TYPE) == EtherType.VLAN;
                    sent.add(new long[] {time.nanoTime(), tagged ? Vlan.pcp(frame, Ethernet.ETHER_TYPE) : -1});
                }
                delegate.send(frame);
            }
        };
        SoftNic.Builder ba = SoftNic.builder().name("a").mac("52:54:00:00:00:0a").ipv4(IP_A).activeMtu(4096)
            .scheduler(time).port(recorder);
        SoftNic.Builder bb = SoftNic.builder().name("b").mac("52:54:00:00:00:0b").ipv4(IP_B).activeMtu(4096)
            .scheduler(time).port(link.portB());
        if (vlan > 0) {
            ba.vlan(vlan, 0);
            bb.vlan(vlan, 0);
        }
        a = nicA.apply(ba).build();
        b = bb.build();
        a.addNeighbor(IP_B, b.mac());
        b.addNeighbor(IP_A, a.mac());
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        CompletionQueue cqA = a.createCq(4096);
        CompletionQueue cqB = b.createCq(4096);
        src = pdA.registerMr(new byte[MSG], 0x10000, AccessFlags.LOCAL_WRITE);
        dst = pdB.registerMr(new byte[MSG], 0x90000, AccessFlags.ALL);
        qa = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
        qb = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
        connect(qa, qb, IP_B);
        connect(qb, qa, IP_A);
    }

    private static void connect(QueuePair qp, QueuePair peer, int peerIp) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp).withTrafficClass(26 << 2))
            .pathMtu(4096).destQpn(peer.qpn()).rqPsn(100).maxDestRdAtomic(1).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(100).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        time.runFor(10_000_000_000L);
    }

    private ByteBuf pause3() {
        ByteBuf f = Unpooled.buffer(60);
        f.writeZero(60);
        Ethernet.write(f, 0, MacAddress.PAUSE_MULTICAST, b.mac(), EtherType.MAC_CONTROL);
        int[] q = new int[8];
        q[3] = 0xFFFF;
        Pfc.write(f, Ethernet.LENGTH, 1 << 3, q);
        return f;
    }

    private void write(int count) {
        for (int i = 0; i < count; i++) {
            qa.postSend(SendWr.write(i, Sge.of(src), 0x90000, dst.rkey()).signaled(true));
        }
    }

    /** Whether a sent data frames between 10 and 100 us after a pause on priority 3 reached it. */
    private boolean sendsThroughAPauseOn3() {
        write(40);
        time.runFor(10_000);
        long at = time.nanoTime();
        link.portB().send(pause3());
        time.runFor(100_000);
        return sent.stream().anyMatch(s -> s[0] > at + 10_000 && s[0] < at + 100_000);
    }

    @Test
    void aPauseForAPriorityWithoutPfcIsCountedAndNotActedOn() {
        fabric(b -> b.dcb(DcbSettings.DEFAULTS.withPfc(DcbSettings.parsePfc("0,0,0,0,1,0,0,0"))), 0);
        assertEquals(3, qa.priority(), "DSCP 26 is priority 3");
        assertTrue(sendsThroughAPauseOn3(), "PFC is off on 3: the pause does not stop it");
        assertFalse(a.isPaused(3));
        assertEquals(1, a.counters().get(NicCounter.RX_PRIO3_PAUSE), "the MAC counts the frame");
        assertEquals(1, a.counters().get(NicCounter.RX_PFC_IGNORED));
        assertEquals(0, a.counters().get(NicCounter.RX_PRIO3_PAUSE_DURATION));
    }

    @Test
    void withPfcOnThreeThePauseStopsIt() {
        fabric(b -> b.dcb(DcbSettings.DEFAULTS.withPfc(DcbSettings.parsePfc("0,0,0,1,0,0,0,0"))), 0);
        assertFalse(sendsThroughAPauseOn3());
        assertTrue(a.isPaused(3));
        assertEquals(0, a.counters().get(NicCounter.RX_PFC_IGNORED));
    }

    @Test
    void trustingPcpAnUntaggedRoceFlowIsPriorityZeroAndNotPaused() {
        fabric(b -> b.dcb(DcbSettings.DEFAULTS.withTrust(DcbSettings.Trust.PCP)), 0);
        assertEquals(0, qa.priority(), "no tag, no priority: 0");
        assertTrue(sendsThroughAPauseOn3(), "the switch's pause on 3 does not reach the flow");
        assertTrue(a.isPaused(3), "priority 3 is paused, but nothing of the flow is on it");
        assertEquals(0, a.counters().get(NicCounter.RX_PFC_IGNORED), "PFC is on for 3: acted on, nothing to stop");
    }

    @Test
    void dcbxAdoptionMovesARunningQpToTheSwitchsLosslessPriorityAndBack() {
        fabric(b -> b.dcb(DcbSettings.DEFAULTS.withTrust(DcbSettings.Trust.PCP).withPfc(0)), 0);
        assertEquals(0, qa.priority());
        Dcbx sw = new Dcbx(null, null, new DcbxPfc(false, false, 8, 0x08), List.of(DcbxApp.dscp(26, 3)));
        a.call(() -> {
            a.dcb().onPeer(1, sw);
            return null;
        });
        assertEquals(3, qa.priority(), "trust dscp from the switch's DSCP entry: DSCP 26 at 3");
        assertEquals(1, a.counters().get(NicCounter.DCBX_ADOPTIONS));
        assertFalse(sendsThroughAPauseOn3(), "and PFC on 3 from the switch: the pause stops it");
        a.call(() -> {
            a.dcb().onPeerGone(1);
            return null;
        });
        assertEquals(0, qa.priority(), "the switch is gone: its own settings again");
        assertEquals(1, a.counters().get(NicCounter.DCBX_ADOPTIONS));
    }

    @Test
    void roceApplicationPriorityIsThePcpOnAVlanPort() {
        fabric(UnaryOperator.identity(), 100);
        write(2);
        time.runFor(50_000);
        assertEquals(0, sent.get(sent.size() - 1)[1], "the configured PCP, 0");
        a.call(() -> {
            a.dcb().onPeer(1, new Dcbx(null, null, null, List.of(DcbxApp.rocev2(3))));
            return null;
        });
        assertEquals(3, qa.priority());
        sent.clear();
        write(2);
        time.runFor(50_000);
        assertFalse(sent.isEmpty());
        assertTrue(sent.stream().allMatch(s -> s[1] == 3), "RoCE frames tagged with UDP 4791's priority");
    }
}
