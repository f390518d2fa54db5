package io.rocelab.sw.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.ArsConfig;
import io.rocelab.sw.pipeline.PacketContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each load-balancing strategy alone, on ports whose load the test sets. */
class LoadBalancerTest {
    private static final long SPEED = 100_000_000_000L;
    /** Bytes a 100 Gb/s port sends in one 16 µs sampling interval. */
    private static final long LINE_RATE_INTERVAL = 200_000;
    private static final long INTERVAL = 16_000;

    private static EcmpGroup group4() {
        return new EcmpGroup(new int[] {0, 1, 2, 3}, new long[] {1, 2, 3, 4});
    }

    private static PacketContext packet(int tc, boolean lossless) {
        PacketContext ctx = new PacketContext();
        ctx.tc = tc;
        ctx.lossless = lossless;
        return ctx;
    }

    /** Port {@code p} sends at line rate from time 0 to {@code until}. */
    private static void lineRate(FakePorts ports, int p, long until) {
        ports.sent[p] = until / INTERVAL * LINE_RATE_INTERVAL;
    }

    @Test
    void bandsQuantiseBetweenMinAndMax() {
        assertEquals(0, PortQuality.quantise(0, 0, 100));
        assertEquals(0, PortQuality.quantise(12.4, 0, 100));
        assertEquals(1, PortQuality.quantise(12.5, 0, 100));
        assertEquals(7, PortQuality.quantise(99.9, 0, 100));
        assertEquals(7, PortQuality.quantise(150, 0, 100));
        assertEquals(0, PortQuality.quantise(5, 10, 100), "below min: band 0");
    }

    @Test
    void theFutureBandOfQueuedBytesIsTheirQuantisation() {
        FakePorts ports = new FakePorts(1, SPEED);
        ArsConfig.Profile d = ArsConfig.Profile.DEFAULT;
        for (long[] range : new long[][] {{0, 64 * 1024}, {1000, 51_000}, {0, 5}}) {
            PortQuality q = new PortQuality(ports, new ArsConfig.Profile("p", d.samplingIntervalNanos(), 0, 100, 0,
                range[0], range[1], 1, true, true));
            for (long bytes = 0; bytes < range[1] + 3000; bytes += bytes < 20 ? 1 : 97) {
                ports.queued[0] = bytes;
                assertEquals(PortQuality.quantise(bytes, range[0], range[1]), q.band(0, 0), bytes + " bytes");
            }
        }
    }

    @Test
    void pastLoadIsAnEwmaOfTheBytesSentPerInterval() {
        FakePorts ports = new FakePorts(1, SPEED);
        PortQuality q = new PortQuality(ports, ArsConfig.Profile.DEFAULT);
        ports.sent[0] = LINE_RATE_INTERVAL;
        assertEquals(25.0, q.pastLoad(0, INTERVAL), 1e-9, "one sample at 100 % moves the average a quarter");
        ports.sent[0] = 2 * LINE_RATE_INTERVAL;
        assertEquals(25 + 75 / 4.0, q.pastLoad(0, 2 * INTERVAL), 1e-9);
        assertEquals(25 + 75 / 4.0, q.pastLoad(0, 2 * INTERVAL + INTERVAL - 1), 1e-9, "no new sample within an interval");
        // 20 more intervals at line rate, sampled at once: each counts
        ports.sent[0] = 22 * LINE_RATE_INTERVAL;
        assertTrue(q.pastLoad(0, 22 * INTERVAL) > 99, "the average reaches line rate");
        // idle for 20 intervals: it decays
        assertTrue(q.pastLoad(0, 42 * INTERVAL) < 1);
    }

    @Test
    void qualityWeighsPastAndFutureLoad() {
        FakePorts ports = new FakePorts(4, SPEED);
        PortQuality q = new PortQuality(ports, ArsConfig.Profile.DEFAULT);
        long now = 40 * INTERVAL;
        lineRate(ports, 1, now);
        ports.queued[2] = 64 * 1024;
        lineRate(ports, 3, now);
        ports.queued[3] = 64 * 1024;
        assertEquals(0, q.band(0, now), "idle, empty");
        assertEquals(4, q.band(1, now), "line rate, empty queue: past band 7, future 0, weighed 1:1");
        assertEquals(4, q.band(2, now), "idle but queued: future band 7");
        assertEquals(7, q.band(3, now), "both");
        assertEquals(0, q.best(group4(), 2, now), "the idle member is best");
    }

    @Test
    void hashBalancerIsTheGroupsHash() {
        FakePorts ports = new FakePorts(4, SPEED);
        EcmpGroup g = group4();
        HashBalancer b = new HashBalancer(ports);
        for (long h = 0; h < 100; h++) {
            assertEquals(g.select(h * 0x9E3779B97F4A7C15L, ports), b.select(g, h * 0x9E3779B97F4A7C15L, packet(3, true),
                0));
        }
        assertEquals("ecmp", b.mode());
    }

    /**
     * A flow's member carries another flow at line rate with an empty queue: after a gap, queue-only
     * flowlets see every queue empty and keep it there; flowlets by quality see the load and move it.
     */
    @Test
    void qualityFlowletsSeeALineRatePortThatQueueOnlyFlowletsMiss() {
        long hash = 0x1234_5678_9ABCL;
        long gapLater = 40 * INTERVAL;
        for (boolean quality : new boolean[] {false, true}) {
            FakePorts ports = new FakePorts(4, SPEED);
            EcmpGroup g = group4();
            PathChanges changes = new PathChanges();
            FlowletBalancer b = quality
                ? FlowletBalancer.byQuality(5_000, 512, new PortQuality(ports, ArsConfig.Profile.DEFAULT), 0xFF, ports,
                    changes)
                : FlowletBalancer.queueOnly(5_000, ports, changes);
            int first = b.select(g, hash, packet(3, true), 0);
            assertEquals(g.select(hash, ports), first, "a new flow starts on its hash");
            lineRate(ports, first, gapLater);
            assertEquals(first, b.select(g, hash, packet(3, true), 1_000), "within the idle time it stays");
            int after = b.select(g, hash, packet(3, true), gapLater);
            if (quality) {
                assertNotEquals(first, after, "by quality the flowlet leaves the loaded member");
                assertEquals(1, changes.total());
                assertEquals(1, g.reassignments());
                assertEquals(1, changes.onto(g.port(after)));
                assertEquals("flowlet-quality", b.mode());
            } else {
                assertEquals(first, after, "queue-only: every queue is empty, the flow stays");
                assertEquals(0, changes.total());
                assertEquals("flowlet", b.mode());
            }
        }
    }

    @Test
    void flowletsByQualityLeaveOtherClassesOnTheirHash() {
        FakePorts ports = new FakePorts(4, SPEED);
        EcmpGroup g = group4();
        PathChanges changes = new PathChanges();
        FlowletBalancer b = FlowletBalancer.byQuality(5_000, 512, new PortQuality(ports, ArsConfig.Profile.DEFAULT),
            1 << 3, ports, changes);
        long hash = 77;
        int hashed = g.select(hash, ports);
        b.select(g, hash, packet(0, false), 0);
        lineRate(ports, hashed, 40 * INTERVAL);
        assertEquals(hashed, b.select(g, hash, packet(0, false), 40 * INTERVAL), "TC 0 is not adaptive");
        assertEquals(0, changes.total());
    }

    private static List<Integer> spray(long seed, int packets, FakePorts ports, EcmpGroup g, PathChanges changes) {
        PerPacketBalancer b = new PerPacketBalancer(new PortQuality(ports, ArsConfig.Profile.DEFAULT), 0, seed, ports,
            changes);
        List<Integer> members = new ArrayList<>();
        for (int i = 0; i < packets; i++) {
            members.add(b.select(g, 0xABCDEFL, packet(3, true), i * 100L));
        }
        return members;
    }

    @Test
    void perPacketSpraysLosslessPacketsOverEveryMemberAndCountsTheMoves() {
        FakePorts ports = new FakePorts(4, SPEED);
        EcmpGroup g = group4();
        PathChanges changes = new PathChanges();
        List<Integer> members = spray(7, 1000, ports, g, changes);
        int hashed = g.select(0xABCDEFL, ports);
        int[] count = new int[4];
        members.forEach(m -> count[m]++);
        for (int c : count) {
            assertTrue(c > 150, "every member gets a share: " + java.util.Arrays.toString(count));
        }
        long off = members.stream().filter(m -> m != hashed).count();
        assertEquals(off, changes.total(), "a path change per packet off its hash's member");
        assertEquals(off, g.reassignments());
        assertEquals(count[(hashed + 1) % 4], changes.onto((hashed + 1) % 4));
        assertEquals(0, changes.onto(hashed));

        assertEquals(members, spray(7, 1000, new FakePorts(4, SPEED), group4(), new PathChanges()), "the seed decides");
        assertNotEquals(members, spray(8, 1000, new FakePorts(4, SPEED), group4(), new PathChanges()));
    }

    @Test
    void perPacketAvoidsAQueuedMemberAndLeavesLossyTrafficOnItsHash() {
        FakePorts ports = new FakePorts(4, SPEED);
        ports.queued[2] = 64 * 1024;
        EcmpGroup g = group4();
        PathChanges changes = new PathChanges();
        assertTrue(spray(3, 500, ports, g, changes).stream().noneMatch(m -> m == 2), "the queued member gets nothing");

        PerPacketBalancer b = new PerPacketBalancer(new PortQuality(ports, ArsConfig.Profile.DEFAULT), 0, 3, ports,
            changes);
        long before = changes.total();
        for (long h = 0; h < 100; h++) {
            assertEquals(g.select(h, ports), b.select(g, h, packet(0, false), h), "lossy: its hash");
        }
        assertEquals(before, changes.total());
        PerPacketBalancer tc1 = new PerPacketBalancer(new PortQuality(ports, ArsConfig.Profile.DEFAULT), 1 << 1, 3,
            ports, changes);
        assertEquals(g.select(5, ports), tc1.select(g, 5, packet(3, true), 0), "traffic_class 1: lossless TC 3 hashes");
        assertEquals("per-packet", tc1.mode());
    }

    @Test
    void aDownMemberIsNeverChosen() {
        FakePorts ports = new FakePorts(4, SPEED);
        ports.down[1] = true;
        EcmpGroup g = group4();
        assertTrue(spray(1, 300, ports, g, new PathChanges()).stream().noneMatch(m -> m == 1));
    }
}
