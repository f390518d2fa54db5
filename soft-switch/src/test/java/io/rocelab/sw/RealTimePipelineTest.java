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
import io.rocelab.fabric.testing.Delivery;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import io.rocelab.sw.egress.EgressPort;
import java.util.List;

import java.util.concurrent.TimeUnit;


import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The same pipeline on a {@link RealTimeScheduler} (wall-clock time, Netty event loop): the egress
 * shaper spaces frames by their wire time at the port's speed, and a received 802.1Qbb pause holds
 * the lossless queue for exactly its quanta at the port's speed unless a zero-quanta frame resumes
 * it first. Bounds are one-sided where a loaded machine could only make things later.
 */
@Tag("realtime")
class RealTimePipelineTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private RealTimeScheduler rt;
    private SoftSwitch sw;
    private RecordingPort p0;
    private RecordingPort p1;

    private void start(SwitchConfig config) {
        rt = RealTimeScheduler.start("rt-switch");
        p0 = new RecordingPort("p0", rt);
        p1 = new RecordingPort("p1", rt);
        sw = OwnerThread.call(rt, () -> {
            SoftSwitch s = new SoftSwitch(config, rt, ALLOC, 3);
            s.attach("Ethernet0", p0);
            s.attach("Ethernet4", p1);
            return s;
        });
    }

    @AfterEach
    void stop() {
        if (rt != null) {
            rt.close();
        }
    }

    @Test
    void shaperSpacesFramesByWireTime() throws Exception {
        // 100 Mb/s: 50 frames take ~16 ms on the wire, well beyond the shaper's bounded catch-up
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(2, 1), 2);
        cb.root().withObject("/PORT/Ethernet0").put("speed", "100");
        start(cb.build());
        int n = 50;
        ByteBuf[] frames = new ByteBuf[n];
        for (int k = 0; k < n; k++) {
            frames[k] = frame(0, k, 4096);
        }
        OwnerThread.call(rt, () -> {
            for (ByteBuf f : frames) {
                p1.deliver(f);
            }
            return null;
        });
        OwnerThread.await(() -> p0.data().size() == n);
        List<Delivery> out = p0.data();
        long wire = (out.get(0).length() + 24) * 8L * 10; // ns per frame at 100 Mb/s
        long span = out.get(n - 1).timeNanos() - out.get(0).timeNanos();
        System.out.printf("real time, 100 Mb/s: %d frames of %d B in %.3f ms (wire time %.3f ms)%n", n,
            out.get(0).length(), span / 1e6, (n - 1) * wire / 1e6);
        for (int k = 0; k < n; k++) {
            assertEquals(k, out.get(k).psn(), "frames leave in order");
        }
        // a late wake-up may send the frames whose line-rate start has passed at once (at most
        // MAX_CATCH_UP_NANOS back), so the span can fall short of the wire time by that much, no more
        assertTrue(span >= (n - 1) * wire - Transmitter.MAX_CATCH_UP_NANOS - 1_000, "faster than the line: " + span);
        assertTrue(span < (n - 1) * wire + TimeUnit.SECONDS.toNanos(2), "stuck: " + span);
        assertEquals(0, OwnerThread.call(rt, () -> sw.counters(1).totalDrops()));
    }

    @Test
    void receivedPauseHoldsForItsQuantaAndXonResumes() throws Exception {
        ConfigBuilder cb = Lab.routes(new ConfigBuilder(2, 1), 2);
        cb.root().withObject("/PORT/Ethernet0").put("speed", "100");
        start(cb.build());
        long pause = Pfc.quantaToNanos(0xFFFF, 100_000_000L);

        ByteBuf xoff = pfc(0xFFFF);
        ByteBuf first = frame(26, 1, 1024);
        // the port acts on a pause after its response time (1 quantum, 5.12 us at 100 Mb/s): the frame
        // comes after that
        long xoffAt = OwnerThread.call(rt, () -> {
            long t = rt.nanoTime();
            p0.deliver(xoff);
            return t;
        });
        Thread.sleep(1);
        OwnerThread.call(rt, () -> {
            p1.deliver(first);
            return null;
        });
        OwnerThread.await(() -> p0.data().size() == 1);
        long held = p0.data().get(0).timeNanos() - xoffAt;
        System.out.printf("real time, 100 Mb/s: XOFF 0xFFFF held the lossless frame %.1f ms (pause %.1f ms)%n",
            held / 1e6, pause / 1e6);
        assertTrue(held >= pause, "left before the pause expired: " + held);
        assertTrue(held < pause + TimeUnit.SECONDS.toNanos(2));

        ByteBuf xoffAgain = pfc(0xFFFF);
        ByteBuf second = frame(26, 2, 1024);
        ByteBuf xon = pfc(0);
        long xoff2 = OwnerThread.call(rt, () -> {
            long t = rt.nanoTime();
            p0.deliver(xoffAgain);
            return t;
        });
        Thread.sleep(1);
        OwnerThread.call(rt, () -> {
            p1.deliver(second);
            return null;
        });
        Thread.sleep(20);
        assertEquals(1, p0.data().size(), "paused again");
        long xonAt = OwnerThread.call(rt, () -> {
            long t = rt.nanoTime();
            p0.deliver(xon);
            return t;
        });
        OwnerThread.await(() -> p0.data().size() == 2);
        long sentAt = p0.data().get(1).timeNanos();
        System.out.printf("XON %.1f ms after XOFF; frame left %.3f ms after XON%n", (xonAt - xoff2) / 1e6,
            (sentAt - xonAt) / 1e6);
        assertTrue(sentAt >= xonAt && sentAt < xoff2 + pause, "resumed by the XON, not by expiry");
        assertEquals(0, OwnerThread.call(rt, () -> sw.counters(1).totalDrops()));
        assertEquals(3L, OwnerThread.call(rt, () -> sw.counters(0).rxPfc[3]), "XOFF, XOFF, XON counted on Ethernet0 (show pfc counters)");
    }

    private static ByteBuf frame(int dscp, int psn, int payload) {
        return new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(1))
            .ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(dscp, 2).opcode(Opcode.RC_RDMA_WRITE_ONLY)
            .reth(0x1000, 0x42, payload).destQp(0x11).psn(psn).payload(new byte[payload]).encode(ALLOC);
    }

    private static ByteBuf pfc(int quanta) {
        ByteBuf f = ALLOC.buffer(Ethernet.MIN_FRAME);
        f.writeZero(Ethernet.MIN_FRAME);
        Ethernet.write(f, 0, MacAddress.PAUSE_MULTICAST, Lab.hostMac(0), EtherType.MAC_CONTROL);
        int[] q = new int[8];
        q[3] = quanta;
        Pfc.write(f, Ethernet.LENGTH, 1 << 3, q);
        return f;
    }


}
