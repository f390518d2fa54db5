package io.rocelab.fabric.lldp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxPfc;
import io.rocelab.codec.lldp.LldpId;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two LLDP agents joined back to back in virtual time: IEEE 802.1AB-2016's fast start (four
 * LLDPDUs a second apart after the link comes up), then one every 30 s with TTL 121; the partner's
 * information kept until its TTL runs out after it goes silent, removed at once by a shutdown
 * LLDPDU or the link going down; a changed DCBX setting sent at once, the credit bounding a burst;
 * a malformed LLDPDU counted and ignored.
 */
class LldpAgentTest {
    private static final long S = LldpAgent.SECOND;
    private final VirtualTimeScheduler time = new VirtualTimeScheduler();

    /** One end: an agent whose frames reach the other end's agent after 1 us unless muted. */
    private final class End {
        final String name;
        final LldpAgent agent;
        final List<Long> sent = new ArrayList<>();
        final List<LldpNeighbor> heard = new ArrayList<>();
        End peer;
        boolean muted;
        Dcbx dcbx = Dcbx.NONE;

        End(String name, long mac) {
            this.name = name;
            agent = new LldpAgent(time, ByteBufAllocator.DEFAULT, mac,
                () -> new Lldpdu(LldpId.chassisMac(mac), LldpId.portName("eth0"), 1, "eth0", name, null, null, null, dcbx),
                this::send);
            agent.setListener((a, n) -> heard.add(n));
        }

        private void send(ByteBuf f) {
            sent.add(time.nanoTime());
            if (muted) {
                f.release();
                return;
            }
            time.schedule(1_000, () -> {
                peer.agent.receive(f);
                f.release();
            });
        }

        long sentBetween(long from, long to) {
            return sent.stream().filter(t -> t >= from && t < to).count();
        }
    }

    private End[] pair() {
        End a = new End("a", 0x0200_0000_0001L);
        End b = new End("b", 0x0200_0000_0002L);
        a.peer = b;
        b.peer = a;
        a.agent.linkStateChanged(true);
        b.agent.linkStateChanged(true);
        return new End[] {a, b};
    }

    @Test
    void fastStartThenEveryThirtySecondsWithTtl121() {
        End[] p = pair();
        End a = p[0];
        time.runFor(5 * S);
        assertEquals(121, LldpAgent.TTL_SECONDS);
        LldpNeighbor n = a.agent.neighbor();
        assertNotNull(n);
        assertEquals("b", n.pdu().systemName());
        assertEquals(121, n.pdu().ttl());
        // the link came up (4 fast), and a new neighbour restarted the fast run: at 0 s twice, then 1, 2, 3 s
        assertTrue(a.sentBetween(0, 1) >= 1 && a.sentBetween(0, 4 * S) >= 4, a.sent.toString());
        assertEquals(0, a.sentBetween(4 * S, 30 * S + 3 * S), a.sent.toString());
        time.runFor(60 * S);
        assertEquals(2, a.sentBetween(4 * S, 65 * S), "every 30 s after the fast run: " + a.sent);
        long last = a.sent.get(a.sent.size() - 1);
        assertEquals(30 * S, last - a.sent.get(a.sent.size() - 2));
        assertEquals(1, a.agent.inserts());
        assertEquals(a.sent.size(), p[1].agent.framesIn());
    }

    @Test
    void aSilentPartnerAgesOutAtItsTtlAndAShutdownOrLinkDownRemovesItAtOnce() {
        End[] p = pair();
        End a = p[0];
        End b = p[1];
        time.runFor(10 * S);
        b.muted = true;
        time.runFor(200 * S);
        assertNull(a.agent.neighbor());
        assertEquals(1, a.agent.ageouts());
        assertNull(a.heard.get(a.heard.size() - 1), "the listener heard it go");
        b.muted = false;
        b.agent.localChanged();
        time.runFor(S);
        assertNotNull(a.agent.neighbor());
        assertEquals(2, a.agent.neighbor().index(), "a new entry, a new number");
        b.agent.shutdown();
        time.runFor(S);
        assertNull(a.agent.neighbor(), "TTL 0 removes it at once");
        assertEquals(1, a.agent.ageouts(), "a shutdown is no ageout");
        assertEquals(2, a.agent.deletes());
        long before = b.sent.size();
        time.runFor(100 * S);
        assertEquals(before, b.sent.size(), "nothing after the shutdown");
        // link down on a fresh pair
        End[] q = pair();
        time.runFor(2 * S);
        assertNotNull(q[0].agent.neighbor());
        q[0].agent.linkStateChanged(false);
        assertNull(q[0].agent.neighbor());
        assertNull(q[0].heard.get(q[0].heard.size() - 1));
    }

    @Test
    void theNeighbourAgesOutExactlyItsTtlAfterItsLastLldpdu() {
        End[] p = pair();
        End a = p[0];
        End b = p[1];
        time.runFor(40 * S);
        b.muted = true;
        long lastHeard = a.agent.neighbor().heardNanos();
        List<Long> goneAt = new ArrayList<>();
        a.agent.setListener((x, n) -> {
            if (n == null) {
                goneAt.add(time.nanoTime());
            }
        });
        time.runFor(300 * S);
        assertEquals(List.of(lastHeard + 121 * S), goneAt);
    }

    @Test
    void aNewDcbxSettingGoesOutAtOnceAndTheCreditBoundsABurst() {
        End[] p = pair();
        End a = p[0];
        End b = p[1];
        time.runFor(20 * S);
        a.dcbx = new Dcbx(null, null, new DcbxPfc(false, false, 8, 0x08), null);
        int before = a.sent.size();
        a.agent.localChanged();
        time.runFor(1_000_000);
        assertEquals(before + 1, a.sent.size());
        assertEquals(0x08, b.agent.neighbor().pdu().dcbx().pfc().enableMask());
        assertEquals(a.dcbx, b.heard.get(b.heard.size() - 1).pdu().dcbx(), "the listener heard the change");
        int burst = a.sent.size();
        for (int i = 0; i < 20; i++) {
            a.agent.localChanged();
        }
        assertTrue(a.sent.size() - burst <= LldpAgent.TX_CREDIT_MAX, "at most the credit at once: " + (a.sent.size() - burst));
        time.runFor(3 * S);
        assertTrue(a.sent.size() - burst <= LldpAgent.TX_CREDIT_MAX + 4, "then about one a second");
    }

    @Test
    void aMalformedLldpduIsCountedAndChangesNothing() {
        End[] p = pair();
        time.runFor(5 * S);
        LldpNeighbor n = p[0].agent.neighbor();
        ByteBuf bad = Unpooled.wrappedBuffer(new byte[] {1, (byte) 0x80, (byte) 0xC2, 0, 0, 0x0E, 2, 0, 0, 0, 0, 2,
            (byte) 0x88, (byte) 0xCC, 0x04, 0x02, 0x07, 0x61});
        p[0].agent.receive(bad);
        assertEquals(1, p[0].agent.framesDiscarded());
        assertEquals(n, p[0].agent.neighbor());
    }
}
