package io.rocelab.sw.mlag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.sw.SonicViews;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.McLagConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MLAG in virtual time: two leaves present one LAG to each dual-homed host (one LACP system, two
 * links in one bond), keep one view of the MACs over the peer link, deliver every frame once (the
 * peer link's isolation), and a whole leaf failing, cleanly or silently, leaves every host
 * reachable through the other.
 */
class MlagTest {
    private static final long SECOND = 1_000_000_000L;
    private final MlagPair p = new MlagPair();

    @AfterEach
    void close() {
        p.close();
    }

    /** {@code from} sends {@code n} frames of distinct flows to {@code to}; returns what {@code to} took in. */
    private long send(TestHost from, TestHost to, int n) {
        long before = to.rxFrames;
        for (int f = 0; f < n; f++) {
            assertTrue(from.send(to.mac, to.ip, 0xC000 + f), "the host has a port to send on");
        }
        p.time.runFor(100_000);
        return to.rxFrames - before;
    }

    private static int iface(SoftSwitch sw, String name) {
        return sw.config().interfaceIndex(name);
    }

    @Test
    void theDualHomedHostSeesOneSystemAndBondsBothLinks() {
        p.time.runFor(5 * SECOND);
        McLagConfig c = p.leaf[0].config().mclag();
        assertEquals(c.systemMac(), p.leaf[1].config().mclag().systemMac(), "both peers derive the same system id");
        for (LacpActor a : p.h.actors) {
            assertTrue(a.distributing(), "each of h's links is in its bond");
            assertEquals(c.systemMac(), a.partner().system(), "h's partner on either link: the domain's system");
            assertEquals(1, a.partner().key());
        }
        assertNotEquals(p.h.actors.get(0).partner().port(), p.h.actors.get(1).partner().port(),
            "the two leaves' ports are numbered apart");
        assertTrue(p.h.actors.get(1).partner().port() >= 0x8000, "the peer with the higher address numbers from 0x8000");
        assertEquals(p.h.actors.get(0).partner().system(), p.h.bond.partner().system());
        for (SoftSwitch l : p.leaf) {
            assertTrue(l.mlag().peerAlive());
            assertTrue(l.mlag().peerUp(iface(l, "PortChannel0001")) && l.mlag().peerUp(iface(l, "PortChannel0002")));
        }
        String view = SonicViews.portChannels(p.leaf[0]);
        System.out.print(view);
        assertTrue(view.contains("MLAG domain 1: 10.255.0.1, peer 10.255.0.2 alive, peer link Ethernet12 up"), view);
        assertTrue(view.contains("PortChannel0001  local Up  peer Up"), view);
    }

    @Test
    void everyFrameArrivesOnceAndBothLeavesLearnTheHostsOnTheirPortChannels() {
        p.time.runFor(5 * SECOND);
        // x's MAC unknown anywhere: flooded, by whichever leaf h's flow takes, to x and o; once each
        assertEquals(64, send(p.h, p.x, 64), "x gets each frame once: the peer link's copy is isolated from x");
        assertEquals(64, p.o.rxNotForMe, "the orphan host gets each flooded frame once");
        assertEquals(64, send(p.x, p.h, 64), "h's MAC is known: to h once each");
        assertEquals(10, send(p.o, p.h, 10), "the orphan reaches h (via its leaf's own port channel)");
        p.time.runFor(SECOND);
        long now = p.time.nanoTime();
        for (SoftSwitch l : p.leaf) {
            assertEquals(iface(l, "PortChannel0001"), l.fdb().lookup(p.h.mac, now), l.config().hostname()
                + " has h on its own PortChannel0001, whichever leaf h's frames came in by");
            assertEquals(iface(l, "PortChannel0002"), l.fdb().lookup(p.x.mac, now));
        }
        assertEquals(iface(p.leaf[0], "Ethernet12"), p.leaf[0].fdb().lookup(p.o.mac, now),
            "leaf1 reaches the orphan over the peer link, told by leaf2");
        assertEquals(0, p.h.rxNotForMe + p.x.rxNotForMe, "known unicast is never flooded to the others");
        long before = p.o.rxNotForMe;
        assertEquals(100, send(p.h, p.x, 100));
        assertEquals(before, p.o.rxNotForMe, "known now: no more flooding");
    }

    @Test
    void aWholeLeafFailingKeepsEveryHostReachable() {
        p.time.runFor(5 * SECOND);
        send(p.h, p.x, 10);
        send(p.x, p.h, 10);
        send(p.o, p.h, 10);
        p.fail(0);
        p.time.runFor(1_000);
        assertEquals(1, p.h.distributing().size(), "h's bond lost its link to leaf1 at once");
        assertFalse(p.leaf[1].mlag().peerAlive(), "leaf2's peer link is down: the peer is gone");
        assertEquals(200, send(p.h, p.x, 200), "h reaches x through leaf2, every frame once");
        assertEquals(200, send(p.x, p.h, 200));
        assertEquals(50, send(p.h, p.o, 50));
        assertEquals(50, send(p.o, p.x, 50));
        p.time.runFor(5 * SECOND);
        assertEquals(200, send(p.h, p.x, 200), "and so it stays");
    }

    @Test
    void aHostLinkThatFailsAndComesBackLosesNothingAfterward() {
        p.time.runFor(5 * SECOND);
        send(p.h, p.x, 10);
        send(p.x, p.h, 10);
        InProcessLinkAccess.hostLink(p, 0).setUp(false); // h's cable to leaf1
        p.time.runFor(1_000);
        assertEquals(iface(p.leaf[0], "Ethernet12"), p.leaf[0].fdb().lookup(p.h.mac, p.time.nanoTime()),
            "leaf1 reaches h over the peer link now");
        assertEquals(100, send(p.x, p.h, 100), "through leaf2, directly or over the peer link");
        InProcessLinkAccess.hostLink(p, 0).setUp(true);
        p.time.runFor(3_500_000_000L); // LACP's 2 s wait and handshake; before the next whole-table sync (at 10 s)
        assertEquals(2, p.h.distributing().size(), "h's bond has both links again");
        assertEquals(iface(p.leaf[0], "PortChannel0001"), p.leaf[0].fdb().lookup(p.h.mac, p.time.nanoTime()),
            "leaf1 has h on its port channel again, told by leaf2 when it came back");
        assertEquals(100, send(p.x, p.h, 100), "nothing is isolated into a black hole");
    }

    @Test
    void aLeafDyingSilentlyIsLeftWithinTheLacpTimeout() {
        p.time.runFor(5 * SECOND);
        send(p.h, p.x, 10);
        send(p.x, p.h, 10);
        p.silence(0);
        long start = p.time.nanoTime();
        long back = -1;
        long lost = 0;
        while (p.time.nanoTime() < start + 6 * SECOND) {
            long got = send(p.h, p.x, 100);
            lost += 100 - got;
            if (back < 0 && got == 100 && p.h.distributing().size() == 1) {
                back = p.time.nanoTime();
            }
            p.time.runFor(100_000_000 - 100_000);
        }
        System.out.printf("leaf1 silent: h->x whole again after %.2f s, %d frames lost before%n",
            (back - start) / 1e9, lost);
        assertTrue(lost > 0, "what the bonds sent to the dead leaf was lost until LACP took it out");
        assertTrue(back > 0 && back - start <= 3 * SECOND + 100_000_000, "within 3 x 1 s: " + (back - start));
        assertTrue(p.h.distributing().size() == 1 && p.x.distributing().size() == 1);
        assertFalse(p.leaf[1].mlag().peerAlive(), "session_timeout 3 s: leaf2 no longer waits for its peer");
        assertEquals(100, send(p.x, p.h, 100));
    }

    @Test
    void aPeerLinkThatIsAPortChannelWorksTheSame() {
        MlagPair q = new MlagPair(true);
        try {
            q.time.runFor(5 * SECOND);
            for (SoftSwitch l : q.leaf) {
                assertEquals(iface(l, "PortChannel0009"), l.mlag().peerLink());
                assertTrue(l.mlag().peerAlive(), l.config().hostname() + " hears its peer over PortChannel0009");
            }
            long before = q.x.rxFrames;
            for (int f = 0; f < 64; f++) {
                q.h.send(q.x.mac, q.x.ip, 0xC000 + f);
            }
            q.time.runFor(100_000);
            assertEquals(64, q.x.rxFrames - before, "isolated on the peer port channel too: once each");
            assertEquals(64, q.o.rxNotForMe);
            q.o.send(q.h.mac, q.h.ip, 1);
            q.time.runFor(SECOND);
            assertEquals(iface(q.leaf[0], "PortChannel0009"), q.leaf[0].fdb().lookup(q.o.mac, q.time.nanoTime()),
                "the orphan's MAC via the peer port channel");
            q.fail(0);
            q.time.runFor(1_000);
            before = q.h.rxFrames;
            for (int f = 0; f < 100; f++) {
                q.x.send(q.h.mac, q.h.ip, 0xC000 + f);
            }
            q.time.runFor(100_000);
            assertEquals(100, q.h.rxFrames - before, "leaf1 gone: through leaf2, once each");
        } finally {
            q.close();
        }
    }
}
