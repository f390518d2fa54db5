package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.sw.forward.EcmpGroup;
import io.rocelab.sw.forward.FlowletTable;
import io.rocelab.sw.forward.PortView;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.api.Test;

/** ECMP over a seeded 5-tuple hash with the RoCEv2 UDP source port as entropy; link down; flowlets. */
class EcmpTest {
    private static final int FLOWS = 4000;
    private static final int MEMBERS = 4;

    /** Port 0: the source host; ports 1-4: the uplinks of one ECMP group for 10.9.0.0/16. */
    private static Lab lab(long seed) {
        ConfigBuilder b = new ConfigBuilder(MEMBERS + 1, 100).switchField("ecmp_hash_seed", String.valueOf(seed))
            .route("10.9.0.0/16", "Ethernet4,Ethernet8,Ethernet12,Ethernet16",
                "02:00:00:00:09:01,02:00:00:00:09:02,02:00:00:00:09:03,02:00:00:00:09:04");
        return new Lab(b.build());
    }

    /** Sends one frame of flow {@code sport} and returns the member it took. */
    private static int send(Lab lab, int sport) {
        long[] before = new long[MEMBERS];
        for (int m = 0; m < MEMBERS; m++) {
            before[m] = lab.hosts.get(m + 1).rxFrames;
        }
        HostStub h = lab.hosts.get(0).flow(Lab.hostMac(0), MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostIp(0),
            Ipv4.parse("10.9.1.1"), 26, 2, sport, 64);
        h.sendOne();
        lab.time.runFor(2_000);
        for (int m = 0; m < MEMBERS; m++) {
            if (lab.hosts.get(m + 1).rxFrames != before[m]) {
                return m;
            }
        }
        return -1;
    }

    private static int[] map(Lab lab) {
        int[] member = new int[FLOWS];
        for (int f = 0; f < FLOWS; f++) {
            member[f] = send(lab, 0xC000 + f);
        }
        return member;
    }

    @Test
    void flowsSpreadStablyAndTheSeedChangesTheMapping() {
        Lab lab = lab(1);
        int[] first = map(lab);
        int[] count = new int[MEMBERS];
        for (int m : first) {
            assertTrue(m >= 0);
            count[m]++;
        }
        System.out.printf("ECMP %d flows over %d members: %d %d %d %d%n", FLOWS, MEMBERS, count[0], count[1],
            count[2], count[3]);
        for (int c : count) {
            assertEquals(FLOWS / MEMBERS, c, FLOWS / MEMBERS * 0.10, "spread within 10 %");
        }
        int[] again = map(lab);
        for (int f = 0; f < FLOWS; f++) {
            assertEquals(first[f], again[f], "the same 5-tuple takes the same member");
        }
        lab.drainAndClose();

        Lab other = lab(2);
        int[] reseeded = map(other);
        int moved = 0;
        for (int f = 0; f < FLOWS; f++) {
            moved += reseeded[f] != first[f] ? 1 : 0;
        }
        System.out.printf("another seed moves %d of %d flows%n", moved, FLOWS);
        assertTrue(moved > FLOWS / 2, "a different seed changes the mapping");
        other.drainAndClose();
    }

    @Test
    void linkDownMovesItsFlowsAtOnce() {
        Lab lab = lab(1);
        int[] before = map(lab);
        lab.links.get(3).setUp(false);  // member 2 (Ethernet12)
        int[] after = map(lab);
        int moved = 0;
        for (int f = 0; f < FLOWS; f++) {
            assertTrue(after[f] >= 0 && after[f] != 2, "no flow uses the dead member");
            if (before[f] == 2) {
                moved++;
            }
        }
        lab.links.get(3).setUp(true);
        int[] restored = map(lab);
        for (int f = 0; f < FLOWS; f++) {
            assertEquals(before[f], restored[f], "back up: the original mapping returns");
        }
        System.out.printf("link down moved %d flows off the dead member%n", moved);
        assertTrue(moved > 0);
        assertEquals(0, lab.sw.counters(0).totalDrops());
        lab.drainAndClose();
    }

    @Test
    void flowletsMoveAFlowOnlyAcrossAGap() {
        long[] load = new long[4];
        PortView view = new PortView() {
            @Override
            public boolean isUp(int port) {
                return true;
            }

            @Override
            public long queuedBytes(int port) {
                return load[port];
            }

            @Override
            public int portCount() {
                return 4;
            }
        };
        EcmpGroup group = new EcmpGroup(new int[] {0, 1, 2, 3}, new long[] {1, 2, 3, 4});
        FlowletTable table = new FlowletTable(50_000);
        long hash = 0x1234_5678_9ABCL;
        int first = table.select(hash, group, view, 0);
        load[first] = 1_000_000;
        long t = 0;
        for (int i = 0; i < 100; i++) {
            t += 10_000;
            assertEquals(first, table.select(hash, group, view, t), "no move within a flowlet");
        }
        load[(first + 2) % 4] = 10;
        load[(first + 1) % 4] = 500;
        load[(first + 3) % 4] = 500;
        int moved = table.select(hash, group, view, t + 60_000);
        assertEquals((first + 2) % 4, moved, "after a gap the flow goes to the least-loaded member");
        assertEquals(1, table.moves());
        assertEquals(moved, table.select(hash, group, view, t + 61_000));
    }

    @Test
    void flowletsInTheSwitchKeepAFlowWhileItIsBusy() {
        ConfigBuilder b = new ConfigBuilder(MEMBERS + 1, 100).switchField("flowlet_timeout", "20")
            .route("10.9.0.0/16", "Ethernet4,Ethernet8,Ethernet12,Ethernet16",
                "02:00:00:00:09:01,02:00:00:00:09:02,02:00:00:00:09:03,02:00:00:00:09:04");
        Lab lab = new Lab(b.build());
        int first = send(lab, 0xC123);
        for (int i = 0; i < 20; i++) {
            assertEquals(first, send(lab, 0xC123), "2 µs apart: same flowlet, same member");
        }
        assertEquals(0, lab.sw.forwarding().flowlets().moves());
        lab.drainAndClose();
    }
}
