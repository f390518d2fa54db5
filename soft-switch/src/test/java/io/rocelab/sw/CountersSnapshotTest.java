package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.sw.stats.PortCounters;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code show pfc counters} and {@code show queue counters} printed from another thread while a
 * real-time switch forwards: each snapshot is taken on the owner thread, so it is consistent (no
 * port has sent more frames than the switch received for it), the counters only grow from one
 * snapshot to the next, and the last one equals what the owner thread counts.
 */
@Tag("realtime")
class CountersSnapshotTest {
    private static final int ROUNDS = 200;
    private static final int PER_ROUND = 5;
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @Test
    void readableFromAnotherThreadWhileTrafficRuns() throws Exception {
        try (RealTimeScheduler rt = RealTimeScheduler.start("counters-switch")) {
            RecordingPort p0 = new RecordingPort("p0", rt);
            RecordingPort p1 = new RecordingPort("p1", rt);
            SoftSwitch sw = new SoftSwitch(Lab.routes(new ConfigBuilder(2, 100), 2).build(), rt, ALLOC, 9);
            CompletableFuture<Void> done = new CompletableFuture<>();
            rt.execute(() -> {
                sw.attach("Ethernet0", p0);
                sw.attach("Ethernet4", p1);
                traffic(rt, p0, p1, 0, done);
            });
            long lastRxPfc = -1;
            long lastTx = -1;
            int views = 0;
            while (!done.isDone()) {
                SwitchCounters s = sw.countersSnapshot();
                PortCounters c0 = s.ports().get(0);
                PortCounters c1 = s.ports().get(1);
                assertTrue(c0.txFrames <= c1.rxFrames, "a consistent snapshot: out " + c0.txFrames + " in " + c1.rxFrames);
                assertTrue(c0.rxPfc[3] >= lastRxPfc && c0.txFrames >= lastTx, "counters only grow");
                lastRxPfc = c0.rxPfc[3];
                lastTx = c0.txFrames;
                String view = SonicViews.pfcCounters(s);
                assertTrue(view.contains("Ethernet0") && view.contains("PFC3"));
                views++;
                Thread.sleep(1);
            }
            done.get(10, TimeUnit.SECONDS);
            Thread.sleep(50);
            SwitchCounters end = sw.countersSnapshot();
            String pfc = SonicViews.pfcCounters(sw);
            String queues = SonicViews.queueCounters(sw);
            System.out.printf("%d snapshots read while traffic ran; final:%n%s%s%n", views, pfc,
                queues.lines().filter(l -> l.contains("UC3") || l.contains("TxQ")).reduce("", (a, b) -> a + b + "\n"));
            assertTrue(views > 10, "the reader ran alongside the traffic: " + views);
            assertEquals(ROUNDS * PER_ROUND, end.ports().get(0).rxPfc[3]);
            assertEquals(ROUNDS * PER_ROUND, end.ports().get(0).queueTxPackets[3]);
            assertEquals(ROUNDS * PER_ROUND, p0.data().size());
            assertTrue(pfc.lines().anyMatch(l -> l.trim().startsWith("Ethernet0") && l.contains(" " + ROUNDS * PER_ROUND)),
                pfc);
        }
    }

    /** {@code clear counters}: a snapshot since a baseline counts only what came after it. */
    @Test
    void sinceABaselineCountsOnlyWhatCameAfter() throws Exception {
        try (RealTimeScheduler rt = RealTimeScheduler.start("counters-baseline")) {
            RecordingPort p0 = new RecordingPort("p0", rt);
            RecordingPort p1 = new RecordingPort("p1", rt);
            SoftSwitch sw = new SoftSwitch(Lab.routes(new ConfigBuilder(2, 100), 2).build(), rt, ALLOC, 9);
            CompletableFuture<Void> first = new CompletableFuture<>();
            rt.execute(() -> {
                sw.attach("Ethernet0", p0);
                sw.attach("Ethernet4", p1);
                traffic(rt, p0, p1, ROUNDS - 10, first);
            });
            first.get(10, TimeUnit.SECONDS);
            Thread.sleep(50);
            SwitchCounters baseline = sw.countersSnapshot();
            assertEquals(10 * PER_ROUND, baseline.ports().get(0).rxPfc[3]);
            SwitchCounters cleared = sw.countersSnapshot().since(baseline);
            assertEquals(0, cleared.ports().get(0).rxPfc[3]);
            assertEquals(0, cleared.ports().get(0).queueTxPackets[3]);
            assertEquals(0, cleared.ports().get(1).rxFrames);
            CompletableFuture<Void> second = new CompletableFuture<>();
            rt.execute(() -> traffic(rt, p0, p1, ROUNDS - 4, second));
            second.get(10, TimeUnit.SECONDS);
            Thread.sleep(50);
            SwitchCounters after = sw.countersSnapshot().since(baseline);
            assertEquals(4 * PER_ROUND, after.ports().get(0).rxPfc[3]);
            assertEquals(4 * PER_ROUND, after.ports().get(0).queueTxPackets[3]);
            assertEquals(14 * PER_ROUND, sw.countersSnapshot().ports().get(0).queueTxPackets[3]);
            assertTrue(SonicViews.pfcCounters(after).lines()
                .anyMatch(l -> l.trim().startsWith("Ethernet0") && l.contains(" " + 4 * PER_ROUND)), SonicViews.pfcCounters(after));
        }
    }

    /** Every millisecond: a short pause (1 quantum) and a few lossless frames, for ROUNDS rounds. */
    private static void traffic(RealTimeScheduler rt, RecordingPort p0, RecordingPort p1, int round,
                                CompletableFuture<Void> done) {
        if (round == ROUNDS) {
            done.complete(null);
            return;
        }
        for (int k = 0; k < PER_ROUND; k++) {
            p0.deliver(pause());
            p1.deliver(frame(round * PER_ROUND + k));
        }
        rt.schedule(1_000_000, () -> traffic(rt, p0, p1, round + 1, done));
    }

    private static ByteBuf frame(int psn) {
        return new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(1))
            .ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(26, 2).opcode(Opcode.RC_RDMA_WRITE_ONLY)
            .reth(0x1000, 0x42, 256).destQp(0x11).psn(psn).payload(new byte[256]).encode(ALLOC);
    }

    private static ByteBuf pause() {
        ByteBuf f = ALLOC.buffer(Ethernet.MIN_FRAME);
        f.writeZero(Ethernet.MIN_FRAME);
        Ethernet.write(f, 0, MacAddress.PAUSE_MULTICAST, Lab.hostMac(0), EtherType.MAC_CONTROL);
        int[] q = new int[8];
        q[3] = 1;
        Pfc.write(f, Ethernet.LENGTH, 1 << 3, q);
        return f;
    }
}
