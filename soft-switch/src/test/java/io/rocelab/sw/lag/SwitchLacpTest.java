package io.rocelab.sw.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Lacpdu;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.sw.SonicViews;
import org.junit.jupiter.api.Test;

/**
 * Two switches negotiate LACP over the two cables of their port channels; a member whose far end
 * goes silent while its link stays up (the silent member failure a LAG without LACP cannot see) is
 * removed within the short timeout, and the traffic that was lost on it moves to the other member.
 */
class SwitchLacpTest {
    private static final long SECOND = 1_000_000_000L;
    private static final int FLOWS = 100;

    /** Host b sends one frame of each of {@link #FLOWS} flows; returns how many reached host a. */
    private static long burst(TwoSwitches t) {
        long before = t.hostA.rxFrames;
        for (int f = 0; f < FLOWS; f++) {
            t.bToA(0xC000 + f);
        }
        t.time.runFor(100_000);
        return t.hostA.rxFrames - before;
    }

    @Test
    void twoSwitchesNegotiateAndBothMembersCarryTraffic() {
        TwoSwitches t = new TwoSwitches(true, true);
        t.time.runFor(SECOND);
        assertFalse(t.groupA().isUp(), "no member distributes before LACP agrees");
        assertEquals(0, burst(t), "nothing crosses a port channel that is not up");
        t.time.runFor(4 * SECOND);
        assertTrue(t.groupA().isUp() && t.groupB().isUp());
        assertEquals(2, t.groupA().distributingCount());
        assertEquals(2, t.groupB().distributingCount());
        LacpActor a4 = t.a.lacpActor(t.a.port("Ethernet4"));
        assertEquals(TwoSwitches.MAC_B, a4.partner().system(), "A's partner is B's system");
        assertEquals(1, a4.partner().key(), "lacp_key auto: 1 for PortChannel0001");
        assertEquals("ATGSCD..", a4.actorInfo().stateString());
        long[] before = {t.b.counters(1).txFrames, t.b.counters(2).txFrames};
        assertEquals(FLOWS, burst(t), "every flow crosses");
        long on4 = t.b.counters(1).txFrames - before[0];
        long on8 = t.b.counters(2).txFrames - before[1];
        assertEquals(FLOWS, on4 + on8);
        assertTrue(on4 > 20 && on8 > 20, "flows spread over both members: " + on4 + "/" + on8);
        String view = SonicViews.portChannels(t.a);
        System.out.print(view);
        assertTrue(view.matches("(?s).* 0001  PortChannel0001  LACP\\(A\\)\\(Up\\) +Ethernet4\\(S\\) Ethernet8\\(S\\)\n.*"),
            view);
        t.close();
    }

    @Test
    void aSilentMemberIsRemovedWithinTheTimeoutAndItsTrafficMoves() {
        TwoSwitches t = new TwoSwitches(true, true);
        t.time.runFor(5 * SECOND);
        assertEquals(FLOWS, burst(t));
        // B's Ethernet8 stops reaching A; the cable's link stays up on both ends
        t.members.get(1).bToA().setFaults(FaultProfile.NONE.withLoss(1.0));
        long start = t.time.nanoTime();
        long removedAt = -1;
        long lost = 0;
        long recoveredAt = -1;
        while (t.time.nanoTime() < start + 8 * SECOND) {
            long got = burst(t);
            lost += FLOWS - got;
            if (removedAt < 0 && t.groupA().distributingCount() == 1) {
                removedAt = t.time.nanoTime();
            }
            if (recoveredAt < 0 && got == FLOWS && removedAt > 0) {
                recoveredAt = t.time.nanoTime();
            }
            t.time.runFor(100_000_000 - 100_000);
        }
        assertTrue(t.members.get(1).portA().isUp() && t.members.get(1).portB().isUp(), "the link never went down");
        assertTrue(lost > 0, "a LAG loses what it sends into the silent member until LACP removes it");
        double removal = (removedAt - start) / 1e9;
        double recovery = (recoveredAt - start) / 1e9;
        System.out.printf("silent member: removed by A after %.2f s, B's flows all arrive again after %.2f s, "
            + "%d frames lost meanwhile%n", removal, recovery, lost);
        assertTrue(removal <= 3.0 + 0.01, "within 3 x the 1 s LACPDU period: " + removal);
        assertTrue(recovery <= removal + 0.2, "B stops using it as soon as A's LACPDU says A no longer collects");
        assertFalse(t.b.lacpActor(2).distributing());
        assertEquals(LacpActor.RxState.DEFAULTED, t.a.lacpActor(2).rxState(), "8 s on, A has forgotten that partner");
        assertEquals(FLOWS, burst(t), "the other member carries every flow");
        String view = SonicViews.portChannels(t.a);
        assertTrue(view.contains("Ethernet4(S) Ethernet8(D)"), view);
        t.members.get(1).bToA().setFaults(FaultProfile.NONE);
        t.time.runFor(5 * SECOND);
        assertEquals(2, t.groupA().distributingCount(), "heard again: back in the aggregation");
        assertEquals(2, t.groupB().distributingCount());
        t.close();
    }

    @Test
    void lacpdusLeaveEveryMemberAndOtherSlowProtocolFramesAreNeverForwarded() {
        TwoSwitches t = new TwoSwitches(true, true);
        t.time.runFor(5 * SECOND);
        LacpActor a4 = t.a.lacpActor(1);
        LacpActor b4 = t.b.lacpActor(1);
        assertTrue(a4.lacpduTx() >= 5 && a4.lacpduRx() >= 5);
        assertEquals(a4.lacpduTx(), b4.lacpduRx(), "each LACPDU A sent on the member, B took");
        assertEquals(0, t.hostA.rxFrames + t.hostB.rxFrames, "LACPDUs stay on their link");
        assertEquals(0, t.a.counters(1).totalDrops(), "nor are they counted as drops");
        assertEquals(Lacpdu.DESTINATION, 0x0180_C200_0002L);
        t.close();
    }

    @Test
    void aStaticPortChannelNeedsNoLacpButCannotSeeASilentMember() {
        TwoSwitches t = new TwoSwitches(true, false);
        assertTrue(t.groupA().isUp(), "static: up with its links");
        assertEquals(FLOWS, burst(t));
        t.members.get(1).bToA().setFaults(FaultProfile.NONE.withLoss(1.0));
        t.time.runFor(10 * SECOND);
        assertEquals(2, t.groupB().distributingCount(), "nothing tells B the member is dead");
        long got = burst(t);
        assertTrue(got < FLOWS && got > 0, "its flows on the silent member are lost for good: " + got);
        assertEquals(null, t.a.lacpActor(1));
        t.close();
    }

    @Test
    void anAdminDownPortChannelTakesNoPartInLacp() {
        TwoSwitches t = new TwoSwitches(true, true, false);
        t.time.runFor(5 * SECOND);
        assertFalse(t.groupA().isUp(), "admin_status down");
        assertEquals(0, t.a.lacpActor(1).lacpduTx(), "A sends no LACPDU on its members");
        assertFalse(t.b.lacpActor(1).distributing(), "so B never aggregates with it");
        assertEquals(0, burst(t));
        t.close();
    }
}
