package io.rocelab.sw.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/**
 * A port channel as one interface: routes and ECMP next hops through it, its frames spread over
 * the members by the flow hash and kept there per flow, a member going down moving only its flows,
 * {@code min_links}, and L2 learning and flooding that see the group once.
 */
class PortChannelTest {
    private static final int FLOWS = 3000;
    private static final int MEMBERS = 3;
    private static final long FAR_MAC = MacAddress.parse("02:00:00:00:09:01");

    /** Port 0: a host; ports 1-3: members of PortChannel0001, the route to 10.9.0.0/16. */
    private static Lab lab(long minLinks, boolean isStatic) {
        ConfigBuilder b = new ConfigBuilder(MEMBERS + 1, 100).route("10.9.0.0/16", "PortChannel0001",
            MacAddress.toString(FAR_MAC));
        SwitchConfigBuilder t = b.tables();
        t.portChannel("PortChannel0001", SwitchConfigBuilder.PortChannel.lacp().withMinLinks(minLinks)
            .withStatic(isStatic));
        for (int m = 1; m <= MEMBERS; m++) {
            t.portChannelMember("PortChannel0001", ConfigBuilder.name(m));
        }
        return new Lab(b.build());
    }

    /** Sends one routed frame of flow {@code sport} and returns the member (0-2) it left by, or -1. */
    private static int send(Lab lab, int sport) {
        long[] before = new long[MEMBERS];
        for (int m = 0; m < MEMBERS; m++) {
            before[m] = lab.hosts.get(m + 1).rxFrames;
        }
        HostStub h = lab.hosts.get(0).flow(Lab.hostMac(0), MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostIp(0),
            Ipv4.parse("10.9.1.1"), 26, 2, sport, 64);
        h.sendOne();
        lab.time.runFor(2_000);
        int member = -1;
        for (int m = 0; m < MEMBERS; m++) {
            if (lab.hosts.get(m + 1).rxFrames != before[m]) {
                assertEquals(-1, member, "one copy, on one member");
                member = m;
            }
        }
        return member;
    }

    private static int[] map(Lab lab) {
        int[] member = new int[FLOWS];
        for (int f = 0; f < FLOWS; f++) {
            member[f] = send(lab, 0xC000 + f);
        }
        return member;
    }

    @Test
    void aRouteViaAPortChannelSpreadsFlowsOverItsMembersAndKeepsEachOnOne() {
        Lab lab = lab(1, true);
        int[] first = map(lab);
        int[] count = new int[MEMBERS];
        for (int m : first) {
            assertTrue(m >= 0, "every flow leaves by a member");
            count[m]++;
        }
        System.out.printf("PortChannel0001: %d flows over %d members: %d %d %d%n", FLOWS, MEMBERS, count[0], count[1],
            count[2]);
        for (int c : count) {
            assertEquals(FLOWS / MEMBERS, c, FLOWS / MEMBERS * 0.10, "spread within 10 %");
        }
        int[] again = map(lab);
        for (int f = 0; f < FLOWS; f++) {
            assertEquals(first[f], again[f], "one flow, one member");
        }
        assertTrue(lab.sw.portChannels().groups().get(0).isUp());
        lab.drainAndClose();
    }

    @Test
    void aMemberGoingDownMovesOnlyItsFlowsAndComingBackRestoresThem() {
        Lab lab = lab(1, true);
        int[] before = map(lab);
        lab.links.get(2).setUp(false); // Ethernet8, member 1
        int[] after = map(lab);
        int moved = 0;
        for (int f = 0; f < FLOWS; f++) {
            assertTrue(after[f] >= 0 && after[f] != 1, "no flow uses the dead member");
            if (before[f] == 1) {
                moved++;
            } else {
                assertEquals(before[f], after[f], "a flow on a live member stays there");
            }
        }
        assertTrue(moved > FLOWS / MEMBERS / 2);
        assertEquals(0, lab.sw.counters(0).totalDrops(), "nothing lost while a member is down");
        lab.links.get(2).setUp(true);
        int[] restored = map(lab);
        for (int f = 0; f < FLOWS; f++) {
            assertEquals(before[f], restored[f], "member back: the original mapping returns");
        }
        lab.drainAndClose();
    }

    @Test
    void belowMinLinksThePortChannelIsDownAndTheRouteWithIt() {
        Lab lab = lab(3, true);
        assertTrue(send(lab, 0xC001) >= 0);
        lab.links.get(3).setUp(false);
        LagGroup g = lab.sw.portChannels().groups().get(0);
        assertFalse(g.isUp(), "2 of min_links 3");
        assertEquals(2, g.distributingCount());
        for (int f = 0; f < 50; f++) {
            assertEquals(-1, send(lab, 0xC000 + f), "nothing leaves a port channel that is down");
        }
        assertEquals(50, lab.sw.counters(0).drops(DropReason.NO_ROUTE), "its route has no live next hop");
        lab.links.get(3).setUp(true);
        assertTrue(g.isUp());
        assertTrue(send(lab, 0xC001) >= 0);
        lab.drainAndClose();
    }

    @Test
    void bridgingLearnsAMacOnThePortChannelWhicheverMemberBroughtIt() {
        Lab lab = lab(1, true);
        long host = Lab.hostMac(0);
        // the far MAC speaks first on member 0 (Ethernet4): learned on PortChannel0001
        HostStub far = lab.hosts.get(1).flow(FAR_MAC, host, Ipv4.parse("10.9.1.1"), Lab.hostIp(0), 0, 0, 0xC000, 64);
        far.sendOne();
        lab.time.runFor(2_000);
        assertEquals(1, lab.hosts.get(0).rxFrames, "unknown destination: flooded to the host");
        for (int m = 2; m <= MEMBERS; m++) {
            assertEquals(0, lab.hosts.get(m).rxFrames, "never flooded back into the port channel it came from");
        }
        int iface = lab.sw.portChannels().groups().get(0).iface();
        assertEquals(iface, lab.sw.fdb().lookup(FAR_MAC, lab.time.nanoTime()));
        // the same MAC on another member stays learned on the group, not that port
        lab.hosts.get(3).flow(FAR_MAC, host, Ipv4.parse("10.9.1.1"), Lab.hostIp(0), 0, 0, 0xC001, 64).sendOne();
        lab.time.runFor(2_000);
        assertEquals(iface, lab.sw.fdb().lookup(FAR_MAC, lab.time.nanoTime()));
        // the host answers: known unicast, one copy on one member, per flow by the hash
        int[] seen = new int[MEMBERS];
        for (int f = 0; f < 300; f++) {
            long[] before = new long[MEMBERS];
            for (int m = 0; m < MEMBERS; m++) {
                before[m] = lab.hosts.get(m + 1).rxFrames;
            }
            lab.hosts.get(0).flow(host, FAR_MAC, Lab.hostIp(0), Ipv4.parse("10.9.1.1"), 0, 0, 0xC000 + f, 64).sendOne();
            lab.time.runFor(2_000);
            int copies = 0;
            for (int m = 0; m < MEMBERS; m++) {
                if (lab.hosts.get(m + 1).rxFrames != before[m]) {
                    copies++;
                    seen[m]++;
                }
            }
            assertEquals(1, copies, "known unicast to the port channel: exactly one copy");
        }
        for (int m = 0; m < MEMBERS; m++) {
            assertTrue(seen[m] > 50, "flows to one MAC still spread over the members: " + seen[m]);
        }
        lab.drainAndClose();
    }

    @Test
    void aBroadcastReachesThePortChannelOnce() {
        Lab lab = lab(1, true);
        for (int f = 0; f < 200; f++) {
            long before = 0;
            for (int m = 1; m <= MEMBERS; m++) {
                before += lab.hosts.get(m).rxFrames;
            }
            lab.hosts.get(0).flow(Lab.hostMac(0), MacAddress.BROADCAST, Lab.hostIp(0), Ipv4.parse("10.9.1.1"), 0, 0,
                0xC000 + f, 64).sendOne();
            lab.time.runFor(2_000);
            long after = 0;
            for (int m = 1; m <= MEMBERS; m++) {
                after += lab.hosts.get(m).rxFrames;
            }
            assertEquals(before + 1, after, "one copy into the port channel");
        }
        lab.drainAndClose();
    }
}
