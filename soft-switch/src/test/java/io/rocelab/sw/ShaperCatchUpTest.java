package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.SinkPort;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.egress.EgressPort;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shaper's catch-up, deterministically: a backlogged 10 Gb/s port whose wake-ups all fire late
 * (as a loaded machine's event loop fires them) still drains at line rate, because each wake-up
 * sends every frame whose start time by line-rate accounting has come; and it never sends faster
 * than the line plus the bounded catch-up ({@link Transmitter#MAX_CATCH_UP_NANOS}). Without
 * catch-up (each wake-up starting its frames at its own late time) this port drains at 2-5 Gb/s.
 */
class ShaperCatchUpTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    private static final long RATE = 10_000_000_000L;
    private static final int PAYLOAD = 8192;

    @ParameterizedTest(name = "timers {0} ns late")
    @ValueSource(longs = {0, 50_000, 200_000, 900_000})
    void backloggedPortDrainsAtLineRateThoughEveryWakeupIsLate(long lateNanos) {
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        Scheduler late = new LateTimerScheduler(time, lateNanos);
        SinkPort out = new SinkPort("p0", time, 1 << 16);
        SinkPort in = new SinkPort("p1", time, 16);
        SoftSwitch sw = new SoftSwitch(Lab.routes(new ConfigBuilder(2, 10), 2).build(), late, ALLOC, 3);
        sw.attach("Ethernet0", out);
        sw.attach("Ethernet4", in);
        ByteBuf template = new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(1))
                .ipv4(Lab.hostIp(1), Lab.hostIp(0)).udp(0xC001, 4791).dscpEcn(0, 0).opcode(Opcode.RC_RDMA_WRITE_ONLY)
                .reth(0x1000, 0x42, PAYLOAD).destQp(0x11).psn(0).payload(new byte[PAYLOAD]).encode(ALLOC);
        BacklogFeeder feeder = new BacklogFeeder(sw, in, template, ALLOC, late, 2_000_000);
        try {
            time.execute(feeder);
            time.runFor(40_000_000);
            feeder.stopped = true;
            long from = 10_000_000;
            long to = 40_000_000;
            double rate = out.bitsBetween(from, to) * 1e9 / (to - from);
            assertEquals(0L, sw.counters(1).totalDrops(), "nothing dropped");
            assertTrue(rate >= 0.97 * RATE, String.format("drains at %.2f Gb/s with timers %d ns late", rate / 1e9,
                    lateNanos));
            long frameBits = SinkPort.wireBits(out.lengths[0]);
            for (long window : new long[] {10_000, 100_000, 1_000_000, 10_000_000}) {
                long most = out.maxBitsInWindow(window);
                long limit = (window + Transmitter.MAX_CATCH_UP_NANOS) * (RATE / 1_000_000_000L) + frameBits;
                assertTrue(most <= limit, "sent " + most + " bits within " + window + " ns, line rate plus burst allows "
                        + limit);
            }
            time.runFor(100_000_000);
        } finally {
            template.release();
        }
    }
}
