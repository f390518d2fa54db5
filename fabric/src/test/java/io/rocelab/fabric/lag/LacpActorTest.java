package io.rocelab.fabric.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Lacpdu;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two systems, each aggregating its end of two cables, negotiate in virtual time: every port
 * collecting and distributing once both ends are in sync; a partner that stops sending on a cable
 * whose link stays up (the silent member failure) takes that port out within three LACPDU periods,
 * then is forgotten; the slow rate waits 90 s; a port cabled to a third system stays out.
 */
class LacpActorTest {
    private static final long SECOND = 1_000_000_000L;
    private final VirtualTimeScheduler time = new VirtualTimeScheduler();
    private final List<InProcessLink> links = new ArrayList<>();

    /** One system's ports, each on its own link end. */
    private final class LacpSystem {
        final LacpAggregator aggregator = new LacpAggregator(false);
        final List<LacpActor> ports = new ArrayList<>();
        final List<Long> changes = new ArrayList<>();

        LacpSystem(long mac, boolean fast, List<io.rocelab.fabric.port.FramePort> ends) {
            for (int i = 0; i < ends.size(); i++) {
                io.rocelab.fabric.port.FramePort end = ends.get(i);
                LacpActor a = new LacpActor(time, new LacpSettings(LacpSettings.DEFAULT_SYSTEM_PRIORITY, mac, 7,
                    LacpSettings.DEFAULT_PORT_PRIORITY, i + 1, fast, true), mac, ByteBufAllocator.DEFAULT, end::send);
                a.setListener(x -> changes.add(time.nanoTime()));
                end.setReceiver((p, f) -> {
                    a.receive(Lacpdu.ofFrame(f));
                    f.release();
                });
                end.addLinkStateListener((p, up) -> a.linkStateChanged(up));
                ports.add(a);
                aggregator.add(a);
            }
        }

        void start() {
            ports.forEach(a -> a.linkStateChanged(true));
        }
    }

    /** Every link down (no more LACPDUs), then what is in flight lands and is released. */
    @org.junit.jupiter.api.AfterEach
    void drain() {
        links.forEach(l -> l.setUp(false));
        time.runFor(SECOND);
    }

    private InProcessLink link(int i) {
        InProcessLink l = InProcessLink.builder().name("l" + i).rateBitsPerSecond(100_000_000_000L)
            .propagationDelayNanos(25).seed(i).build(time);
        links.add(l);
        return l;
    }

    private LacpSystem[] pair(boolean fastA, boolean fastB) {
        InProcessLink l0 = link(0);
        InProcessLink l1 = link(1);
        LacpSystem a = new LacpSystem(0x02_00_00_00_00_0aL, fastA, List.of(l0.portA(), l1.portA()));
        LacpSystem b = new LacpSystem(0x02_00_00_00_00_0bL, fastB, List.of(l0.portB(), l1.portB()));
        a.start();
        b.start();
        return new LacpSystem[] {a, b};
    }

    private static boolean allDistributing(LacpSystem s) {
        return s.ports.stream().allMatch(p -> p.collecting() && p.distributing());
    }

    @Test
    void twoSystemsBringEveryPortToCollectingAndDistributing() {
        LacpSystem[] s = pair(true, true);
        time.runFor(SECOND);
        assertFalse(allDistributing(s[0]), "a selected port first waits Aggregate_Wait_Time (2 s)");
        time.runFor(3 * SECOND);
        for (LacpSystem sys : s) {
            assertTrue(allDistributing(sys), "in sync both ways: collecting and distributing");
            for (LacpActor p : sys.ports) {
                assertEquals(LacpActor.RxState.CURRENT, p.rxState());
                assertTrue(p.partnerInSync());
                assertEquals("ATGSCD..", p.actorInfo().stateString());
            }
        }
        assertEquals(0x02_00_00_00_00_0bL, s[0].aggregator.partner().system());
        long before = s[0].ports.get(0).lacpduTx();
        time.runFor(10 * SECOND);
        long sent = s[0].ports.get(0).lacpduTx() - before;
        assertEquals(10, sent, 1, "fast rate: one LACPDU a second once settled");
    }

    @Test
    void aSilentPartnerIsRemovedWithinThreePeriodsWhileTheLinkStaysUp() {
        LacpSystem[] s = pair(true, true);
        time.runFor(5 * SECOND);
        assertTrue(allDistributing(s[0]) && allDistributing(s[1]));
        long silentFrom = time.nanoTime();
        links.get(1).bToA().setFaults(FaultProfile.NONE.withLoss(1.0)); // b's port 2 goes silent towards a
        LacpActor heard = s[0].ports.get(1);
        LacpActor silent = s[1].ports.get(1);
        long removedAt = -1;
        while (time.nanoTime() < silentFrom + 10 * SECOND) {
            time.runFor(10_000_000);
            if (removedAt < 0 && !heard.distributing()) {
                removedAt = time.nanoTime();
                assertFalse(heard.collecting(), "out of sync: neither collecting nor distributing");
                assertTrue(links.get(1).portA().isUp(), "the link itself is up all along");
            }
        }
        long took = removedAt - silentFrom;
        System.out.printf("silent member removed after %.2f s%n", took / 1e9);
        assertTrue(took > 2 * SECOND && took <= 3 * SECOND + 20_000_000, "within 3 x 1 s, after the last LACPDU: " + took);
        assertEquals(LacpActor.RxState.DEFAULTED, heard.rxState(), "another 3 s later the partner is forgotten");
        assertFalse(heard.selected());
        assertFalse(silent.distributing(), "the far end hears a is no longer collecting and stops sending there too");
        assertTrue(s[0].ports.get(0).distributing() && s[1].ports.get(0).distributing(), "the other member carries on");
        links.get(1).bToA().setFaults(FaultProfile.NONE);
        time.runFor(5 * SECOND);
        assertTrue(allDistributing(s[0]) && allDistributing(s[1]), "heard again: back in");
    }

    @Test
    void theSlowRateWaitsNinetySeconds() {
        LacpSystem[] s = pair(false, false);
        time.runFor(5 * SECOND);
        assertTrue(allDistributing(s[0]));
        long before = s[0].ports.get(0).lacpduTx();
        time.runFor(60 * SECOND);
        assertEquals(2, s[0].ports.get(0).lacpduTx() - before, "every 30 s");
        links.get(0).bToA().setFaults(FaultProfile.NONE.withLoss(1.0));
        time.runFor(60 * SECOND);
        assertTrue(s[0].ports.get(0).distributing(), "60 s of silence is within the long timeout");
        time.runFor(35 * SECOND);
        assertFalse(s[0].ports.get(0).distributing(), "90 s after the last LACPDU it is out");
    }

    @Test
    void aPortCabledToAnotherSystemStaysOut() {
        InProcessLink l0 = link(0);
        InProcessLink l1 = link(1);
        LacpSystem a = new LacpSystem(0x02_00_00_00_00_0aL, true, List.of(l0.portA(), l1.portA()));
        LacpSystem b = new LacpSystem(0x02_00_00_00_00_0bL, true, List.of(l0.portB()));
        LacpSystem c = new LacpSystem(0x02_00_00_00_00_0cL, true, List.of(l1.portB()));
        a.start();
        b.start();
        c.start();
        time.runFor(5 * SECOND);
        assertTrue(a.ports.get(0).distributing());
        assertFalse(a.ports.get(1).selected(), "another partner system: not in this aggregation");
        assertFalse(a.ports.get(1).distributing());
        assertFalse(c.ports.get(0).distributing(), "and the far end sees a never in sync with it");
    }

    @Test
    void aLinkDownTakesThePortOutAtOnce() {
        LacpSystem[] s = pair(true, true);
        time.runFor(5 * SECOND);
        links.get(0).setUp(false);
        assertFalse(s[0].ports.get(0).distributing());
        assertFalse(s[0].ports.get(0).collecting());
        assertEquals(LacpActor.RxState.PORT_DISABLED, s[0].ports.get(0).rxState());
        assertTrue(s[0].ports.get(1).distributing());
        links.get(0).setUp(true);
        time.runFor(6 * SECOND);
        assertTrue(allDistributing(s[0]) && allDistributing(s[1]));
    }

    @Test
    void fallbackForwardsOnOnePortWhileNoPartnerIsHeard() {
        InProcessLink l0 = link(0);
        InProcessLink l1 = link(1);
        LacpAggregator agg = new LacpAggregator(true);
        List<LacpActor> ports = new ArrayList<>();
        for (var end : List.of(l0.portA(), l1.portA())) {
            LacpActor a = new LacpActor(time, new LacpSettings(65535, 0x0aL, 1, 255, ports.size() + 1, true, true), 0x0aL,
                ByteBufAllocator.DEFAULT, ByteBuf::release);
            ports.add(a);
            agg.add(a);
            a.linkStateChanged(true);
        }
        time.runFor(10 * SECOND);
        assertTrue(ports.get(0).distributing() && ports.get(0).inFallback(), "no partner: the first port forwards");
        assertFalse(ports.get(1).distributing());
    }
}
