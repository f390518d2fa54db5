package io.rocelab.sw.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.routing.Ipv4Prefix;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.BgpConfig;
import io.rocelab.sw.forward.EcmpGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The eBGP speaker in a two-leaf, two-spine fabric in virtual time: each rule it follows, one test. */
class BgpSpeakerTest {
    private static final Ipv4Prefix RACK0 = Ipv4Prefix.parse("10.0.0.0/24");
    private static final Ipv4Prefix RACK1 = Ipv4Prefix.parse("10.0.1.0/24");
    private static final long PROCESSING = 50_000L;
    /** A BGP UPDATE of one prefix on a 100 Gb/s, 25 ns link: well under a microsecond. */
    private static final long WIRE = 1_000L;

    @Test
    void sessionsComeUpAndEachLeafLearnsTheOtherRackOverBothSpines() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        for (SoftSwitch s : f.all()) {
            for (BgpSession session : s.bgp().sessions()) {
                assertEquals(BgpSession.State.Established, session.state(), s.config().hostname());
            }
        }
        BgpSpeaker.Best best = f.leaves[1].bgp().locRib().get(RACK0);
        assertNotNull(best);
        assertEquals(List.of(65100L, 65001L), best.asPath());
        assertEquals(2, best.via().size(), "multipath over both spines (as-path multipath-relax)");
        EcmpGroup g = f.leaves[1].forwarding().routes().exact(RACK0.address(), 24);
        assertNotNull(g, "the route is in leaf1's FIB");
        assertEquals(2, g.size());
        assertEquals(f.leaves[1].port("Ethernet4"), g.port(0));
        assertEquals(f.leaves[1].port("Ethernet8"), g.port(1));
        assertEquals(LeafSpineBgp.spineMac(0), g.mac(0), "the next hop's MAC, learnt from its frames");
        // spines: one route per rack, one hop
        assertEquals(List.of(65001L), f.spines[0].bgp().locRib().get(RACK0).asPath());
        assertEquals(List.of(65002L), f.spines[0].bgp().locRib().get(RACK1).asPath());
    }

    @Test
    void aCutCableWithdrawsAtOnceAndTheWithdrawalTravelsHopByHopInProcessingPlusWireTime() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        long t0 = f.time.nanoTime();
        f.links[0][0].setUp(false);
        f.time.runFor(10_000_000L);
        // spine0 lost its session with leaf0 at once (fast-external-failover), took the route out
        // after one processing time
        RouteChange s0 = last(f.spines[0], RACK0);
        assertTrue(s0.withdrawn());
        assertEquals(t0 + PROCESSING, s0.nanos());
        assertNull(f.spines[0].forwarding().routes().exact(RACK0.address(), 24));
        // leaf1 heard the withdrawal and now routes rack 0 over spine1 alone
        RouteChange l1 = last(f.leaves[1], RACK0);
        assertEquals(List.of("Ethernet8"), l1.nextHops());
        long hop = l1.nanos() - t0;
        assertTrue(hop >= 2 * PROCESSING && hop <= 2 * PROCESSING + WIRE, "leaf1 rerouted after " + hop + " ns");
        // leaf0 itself: its session on the dead link is gone, rack 1 over spine1 only
        assertEquals(List.of("Ethernet8"), last(f.leaves[0], RACK1).nextHops());
        assertEquals(t0 + PROCESSING, last(f.leaves[0], RACK1).nanos());
    }

    @Test
    void aRouteWhoseAsPathHoldsOurAsIsRefused() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        assertTrue(f.spines[0].bgp().updatesDiscarded() > 0, "leaf1 offered spine0 paths through AS 65100");
        f.links[0][0].setUp(false);
        f.time.runFor(10_000_000L);
        // leaf1 still reaches rack 0 (via spine1, AS path 65100 65001) but spine0 must not take it from
        // leaf1: that path holds its own AS
        assertNull(f.spines[0].bgp().locRib().get(RACK0));
    }

    @Test
    void withoutFastExternalFailoverTheHoldTimerFindsTheCutCable() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter().withoutFastFailover());
        f.converge();
        long t0 = f.time.nanoTime();
        f.links[0][0].setUp(false);
        f.time.runFor(10_000_000_000L);
        long at = last(f.leaves[1], RACK0).nanos() - t0;
        // the last KEEPALIVE came at most 3 s before the cut; the hold time is 9 s
        assertTrue(at > 6_000_000_000L && at <= 9_000_000_000L + 2 * PROCESSING + WIRE, "rerouted after " + at);
    }

    @Test
    void aSilentTransmitterIsFoundByTheHoldTimer() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter().withHold(1_000_000_000L, 3_000_000_000L));
        f.converge();
        long t0 = f.time.nanoTime();
        f.links[0][0].aToB().setFaults(FaultProfile.NONE.withLoss(1.0)); // leaf0's transmitter to spine0
        f.time.runFor(5_000_000_000L);
        BgpSession s = f.spines[0].bgp().session(f.spines[0].port("Ethernet0"));
        assertEquals("hold timer expired", s.lastDownReason());
        long at = s.upDownSinceNanos() - t0;
        assertTrue(at > 2_000_000_000L && at <= 3_000_000_000L, "hold timer expired after " + at);
        long l1 = last(f.leaves[1], RACK0).nanos() - t0;
        assertTrue(l1 >= at + 2 * PROCESSING && l1 <= at + 2 * PROCESSING + WIRE, "leaf1 rerouted after " + l1);
    }

    @Test
    void bfdFindsASilentTransmitterWithinIntervalTimesMultiplier() {
        BgpConfig.Bfd bfd = new BgpConfig.Bfd(1_000_000L, 3);
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter().withBfd(bfd));
        f.converge();
        BgpSession spineSide = f.spines[0].bgp().session(f.spines[0].port("Ethernet0"));
        assertTrue(spineSide.bfd().isUp());
        assertEquals(3_000_000L, spineSide.bfd().detectNanos());
        long t0 = f.time.nanoTime();
        f.links[0][0].aToB().setFaults(FaultProfile.NONE.withLoss(1.0));
        f.time.runFor(50_000_000L);
        assertFalse(spineSide.bfd().isUp());
        assertEquals("BFD detection time expired", spineSide.lastDownReason());
        long at = spineSide.upDownSinceNanos() - t0;
        // the last packet came at most one transmit interval before the failure
        assertTrue(at > 3_000_000L - 1_000_000L && at <= 3_000_000L, "BFD detected after " + at);
        // leaf0 hears of it from spine0 (its NOTIFICATION, or its BFD saying Down) and goes down too
        BgpSession leafSide = f.leaves[0].bgp().session(f.leaves[0].port("Ethernet4"));
        assertEquals(BgpSession.State.Idle, leafSide.state());
        assertFalse(leafSide.bfd().isUp());
        assertTrue(leafSide.upDownSinceNanos() - spineSide.upDownSinceNanos() <= WIRE, "leaf0 went down "
            + (leafSide.upDownSinceNanos() - spineSide.upDownSinceNanos()) + " ns after spine0");
        long l1 = last(f.leaves[1], RACK0).nanos() - t0;
        assertTrue(l1 <= at + 2 * PROCESSING + WIRE, "leaf1 rerouted after " + l1);
    }

    @Test
    void frrsDefaultBfdDetectsIn900Milliseconds() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter().withBfd(BgpConfig.Bfd.FRR_DEFAULT));
        f.converge();
        long t0 = f.time.nanoTime();
        f.links[0][0].aToB().setFaults(FaultProfile.NONE.withLoss(1.0));
        f.time.runFor(2_000_000_000L);
        BgpSession s = f.spines[0].bgp().session(f.spines[0].port("Ethernet0"));
        long at = s.upDownSinceNanos() - t0;
        assertTrue(at > 600_000_000L && at <= 900_000_000L, "BFD detected after " + at);
    }

    @Test
    void theMraiHoldsBackAnAdvertisementButNotAWithdrawal() {
        long mrai = 100_000_000L;
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter().withMrai(mrai));
        f.converge();
        long lastAdvert = f.spines[0].bgp().session(f.spines[0].port("Ethernet4")).lastAdvertisedNanos();
        long t0 = f.time.nanoTime();
        assertTrue(t0 - lastAdvert < mrai);
        f.links[0][0].setUp(false);
        f.time.runFor(1_000_000L);
        long withdrawn = last(f.leaves[1], RACK0).nanos() - t0;
        assertTrue(withdrawn <= 2 * PROCESSING + WIRE, "the withdrawal is not held back: " + withdrawn);
        // the cable comes back: the session comes up and leaf0 advertises rack 0 to spine0 at once (a
        // new session), but spine0 advertised to leaf1 less than an MRAI ago: it waits for it
        f.links[0][0].setUp(true);
        f.time.runFor(2 * mrai);
        RouteChange again = last(f.leaves[1], RACK0);
        assertEquals(2, again.nextHops().size());
        long expected = lastAdvert + mrai + PROCESSING;
        // (leaf1 may process other UPDATEs of that batch first: spine0 also sends back the paths it refused)
        assertTrue(again.nanos() >= expected && again.nanos() <= expected + 3 * PROCESSING + WIRE,
            "re-advertised at " + again.nanos() + ", the MRAI ended at " + (lastAdvert + mrai));
    }

    @Test
    void withoutMraiTheReturningCableIsAdvertisedAtOnce() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        f.links[0][0].setUp(false);
        f.time.runFor(1_000_000L);
        long back = f.time.nanoTime();
        f.links[0][0].setUp(true);
        f.time.runFor(10_000_000L);
        RouteChange again = last(f.leaves[1], RACK0);
        assertEquals(2, again.nextHops().size());
        // OPEN, KEEPALIVE, the UPDATE to spine0 (processed), spine0's to leaf1 (processed): a few wire times
        assertTrue(again.nanos() - back <= 2 * PROCESSING + 6 * WIRE, "re-advertised after " + (again.nanos() - back));
    }

    @Test
    void aStaticRouteWinsOverBgpsForTheSamePrefix() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter(), "10.0.1.0/24");
        f.converge();
        assertNotNull(f.leaves[0].bgp().locRib().get(RACK1), "in the RIB");
        assertFalse(f.leaves[0].bgp().inFib(RACK1), "not in the FIB: the static route (distance 1) wins");
        EcmpGroup g = f.leaves[0].forwarding().routes().exact(RACK1.address(), 24);
        assertEquals(1, g.size(), "the static route, to spine1 only");
    }

    @Test
    void anOpenLostOnTheWayIsSentAgainAsTcpWouldAndTheSessionComesUp() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.links[0][0].aToB().setFaults(FaultProfile.NONE.withLoss(1.0)); // leaf0's OPEN to spine0 is lost
        f.time.runFor(300_000_000L);
        BgpSession leafSide = f.leaves[0].bgp().session(f.leaves[0].port("Ethernet4"));
        BgpSession spineSide = f.spines[0].bgp().session(f.spines[0].port("Ethernet0"));
        assertEquals(BgpSession.State.OpenSent, spineSide.state(), "spine0 never heard leaf0's OPEN");
        assertEquals(BgpSession.State.OpenConfirm, leafSide.state(), "leaf0 heard spine0's and answered");
        f.links[0][0].aToB().setFaults(FaultProfile.NONE);
        // spine0 sends its OPEN again (1 s after the first): leaf0, in OpenConfirm, answers with its own
        f.time.runFor(1_000_000_000L);
        assertEquals(BgpSession.State.Established, leafSide.state());
        assertEquals(BgpSession.State.Established, spineSide.state());
        assertNotNull(f.spines[0].bgp().locRib().get(RACK0));
    }

    @Test
    void aThousandPrefixesTravelInUpdatesOfAtMost700() {
        List<String> many = new java.util.ArrayList<>();
        for (int k = 0; k < 1000; k++) {
            many.add("172.16." + (k / 250) + "." + (k % 250) + "/32");
        }
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter(), null, many);
        f.converge();
        BgpSession toSpine0 = f.leaves[0].bgp().session(f.leaves[0].port("Ethernet4"));
        // the rack and the thousand share one path: ceil(1001 / 700) = 2 UPDATEs, and one more for leaf1's
        // rack learnt from spine1, offered back to spine0 (which refuses it: its own AS is in the path)
        assertEquals(3, toSpine0.updatesSent());
        assertEquals(1001, f.spines[0].bgp().session(f.spines[0].port("Ethernet0")).prefixesReceived());
        assertEquals(1002, f.leaves[1].bgp().locRib().size(), "leaf0's 1001 and its own rack");
    }

    @Test
    void aLostWithdrawalIsResentAfterTheRetransmissionTimeout() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        f.time.runFor(100_000_000L); // the delayed ACKs of the first UPDATEs have come: nothing unacknowledged
        f.links[1][0].bToA().setFaults(FaultProfile.NONE.withLoss(1.0)); // spine0 to leaf1: everything lost
        long t0 = f.time.nanoTime();
        f.links[0][0].setUp(false);
        f.time.runFor(150_000_000L);
        assertEquals(2, last(f.leaves[1], RACK0).nextHops().size(), "the withdrawal was lost: leaf1 still uses spine0");
        f.links[1][0].bToA().setFaults(FaultProfile.NONE);
        f.time.runFor(1_000_000_000L);
        BgpSession spineToLeaf1 = f.spines[0].bgp().session(f.spines[0].port("Ethernet4"));
        assertEquals(1, spineToLeaf1.retransmissions(), "resent once, 200 ms after it was first sent");
        RouteChange l1 = last(f.leaves[1], RACK0);
        assertEquals(List.of("Ethernet8"), l1.nextHops());
        long at = l1.nanos() - t0;
        long expected = PROCESSING + BgpSession.RTO_MIN_NANOS + PROCESSING;
        assertTrue(at >= expected && at <= expected + WIRE, "rerouted after " + at);
        assertEquals(BgpSession.State.Established, spineToLeaf1.state());
    }

    @Test
    void aSegmentAfterALostOneIsDroppedAndCountedThenResentInOrder() {
        LeafSpineBgp f = new LeafSpineBgp(LeafSpineBgp.Timers.datacenter());
        f.converge();
        BgpSession spineSide = f.spines[0].bgp().session(f.spines[0].port("Ethernet0"));
        BgpSession leafSide = f.leaves[0].bgp().session(f.leaves[0].port("Ethernet4"));
        f.links[0][0].aToB().setFaults(FaultProfile.NONE.withLoss(1.0));
        f.time.runFor(3_500_000_000L); // leaf0's KEEPALIVE (every 3 s) lost, and its resends
        f.links[0][0].aToB().setFaults(FaultProfile.NONE);
        f.time.runFor(5_000_000_000L);
        assertEquals(BgpSession.State.Established, spineSide.state(), "within the 9 s hold time");
        assertTrue(leafSide.retransmissions() >= 1, "leaf0 resent its KEEPALIVE");
        assertEquals(0, spineSide.drops());
    }

    private static RouteChange last(SoftSwitch s, Ipv4Prefix p) {
        List<RouteChange> cs = s.bgp().changes().stream().filter(c -> c.prefix().equals(p)).toList();
        assertFalse(cs.isEmpty(), s.config().hostname() + " never programmed " + p);
        return cs.get(cs.size() - 1);
    }
}
