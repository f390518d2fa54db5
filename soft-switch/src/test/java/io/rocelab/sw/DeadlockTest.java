package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The classic PFC deadlock: three switches in a ring, each host sending two hops clockwise, so
 * every ring link carries two flows into one and every switch's buffer waits on the next one's.
 * Once all three ring egresses are paused at once nothing can drain, even after the hosts stop;
 * the PFC watchdog breaks the cycle by dropping the stalled queues.
 */
class DeadlockTest {
    private static final int N = 3;
    private static final long MS = 1_000_000;

    private static final class Ring {
        final VirtualTimeScheduler time = new VirtualTimeScheduler();
        final List<SoftSwitch> switches = new ArrayList<>();
        final List<HostStub> hosts = new ArrayList<>();

        Ring(boolean watchdog) {
            for (int i = 0; i < N; i++) {
                ConfigBuilder b = new ConfigBuilder(3, 100);
                b.route("10.0." + i + ".1/32", "Ethernet0", MacAddress.toString(hostMac(i)));
                b.route("10.0." + ((i + 1) % N) + ".1/32", "Ethernet4", ConfigBuilder.ROUTER_MAC);
                b.route("10.0." + ((i + 2) % N) + ".1/32", "Ethernet4", ConfigBuilder.ROUTER_MAC);
                if (watchdog) {
                    b.pfcWd("drop", 2, 4);
                }
                switches.add(new SoftSwitch(b.build(), time, ByteBufAllocator.DEFAULT, i));
            }
            for (int i = 0; i < N; i++) {
                InProcessLink host = InProcessLink.builder().name("h" + i).rateGbps(100).propagationDelayNanos(25)
                    .build(time);
                switches.get(i).attach("Ethernet0", host.portB());
                hosts.add(new HostStub(time, host.portA(), 100_000_000_000L));
                InProcessLink ring = InProcessLink.builder().name("r" + i).rateGbps(100).propagationDelayNanos(25)
                    .build(time);
                switches.get(i).attach("Ethernet4", ring.portA());
                switches.get((i + 1) % N).attach("Ethernet8", ring.portB());
            }
            for (int i = 0; i < N; i++) {
                hosts.get(i).flow(hostMac(i), MacAddress.parse(ConfigBuilder.ROUTER_MAC), ip(i), ip((i + 2) % N), 26, 2,
                    0xC000 + i, 4096);
            }
        }

        static long hostMac(int i) {
            return 0x02_00_00_00_07_00L + i;
        }

        static int ip(int i) {
            return Ipv4.parse("10.0." + i + ".1");
        }

        long ringTx() {
            long s = 0;
            for (SoftSwitch sw : switches) {
                s += sw.counters(sw.port("Ethernet4")).queueTxPackets[3];
            }
            return s;
        }

        long buffered() {
            long s = 0;
            for (SoftSwitch sw : switches) {
                s += sw.mmu().poolUsed(0);
            }
            return s;
        }

        void run() {
            hosts.forEach(HostStub::start);
            time.runFor(2 * MS);
            hosts.forEach(HostStub::stop);
            time.runFor(MS);
        }
    }

    @Test
    void cyclicBufferDependencyDeadlocksWithoutTheWatchdog() {
        Ring ring = new Ring(false);
        ring.run();
        long tx = ring.ringTx();
        long buffered = ring.buffered();
        ring.time.runFor(20 * MS);
        System.out.printf("ring without watchdog: %d bytes stuck in 3 switches, ring frames sent in 20 ms: %d%n",
            ring.buffered(), ring.ringTx() - tx);
        assertTrue(buffered > 0, "frames stuck in the ring");
        assertEquals(buffered, ring.buffered(), "nothing drains");
        assertEquals(tx, ring.ringTx(), "no ring link transmits: deadlock");
        for (SoftSwitch sw : ring.switches) {
            assertTrue(sw.pfc().pausedMask(sw.port("Ethernet8")) != 0, "every switch keeps pausing its upstream");
            assertEquals(0, sw.counters(0).totalDrops() + sw.counters(1).totalDrops() + sw.counters(2).totalDrops());
        }
        // free what is stuck (as an operator clearing the queues would); the XONs then go out
        for (SoftSwitch sw : ring.switches) {
            for (int p = 0; p < 3; p++) {
                sw.egress(p).flush();
            }
        }
        ring.time.runFor(MS);
        ring.hosts.forEach(HostStub::close);
        assertEquals(0, ring.buffered());
    }

    @Test
    void theWatchdogBreaksTheDeadlock() {
        Ring ring = new Ring(true);
        ring.run();
        ring.time.runFor(20 * MS);
        long storms = 0;
        long drops = 0;
        for (SoftSwitch sw : ring.switches) {
            for (QueueWatch w : sw.watchdog().watches()) {
                storms += w.stormDetected;
                drops += w.txDrop;
            }
        }
        System.out.printf("ring with watchdog: %d storms detected, %d frames dropped, %d bytes left buffered%n",
            storms, drops, ring.buffered());
        System.out.print(SonicViews.pfcwdStats(ring.switches.get(0)));
        assertTrue(storms > 0, "the stalled ring queues are declared stormed");
        assertEquals(0, ring.buffered(), "every buffer drained: the deadlock is broken");
        ring.hosts.forEach(HostStub::close);
    }
}
