package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.testing.Delivery;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.nio.file.Files;
import java.nio.file.Path;




import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In real time the switch reads the clock once per task of its owner thread for a burst of frames
 * to idle ports, not once per frame; it reads again in the next task, when a port looks busy at
 * the remembered time, and for every frame while a capture is attached. Every frame still goes
 * out, in order, and the remembered time never delays one.
 */
class RealTimeClockReadsTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
    private static final int PORTS = 4;

    @TempDir
    Path dir;

    @Test
    void aBurstToIdlePortsReadsTheClockOncePerTaskAndAgainInTheNext() throws Exception {
        run(false);
    }

    @Test
    void withACaptureEveryFrameReadsTheClock() throws Exception {
        run(true);
    }

    private void run(boolean capture) throws Exception {
        try (RealTimeScheduler rt = RealTimeScheduler.start("clock-reads");
             PcapngWriter w = capture ? PcapngWriter.create(dir.resolve("sw.pcapng")) : null) {
            RecordingPort[] ports = new RecordingPort[PORTS];
            SoftSwitch sw = OwnerThread.call(rt, () -> {
                SoftSwitch s = new SoftSwitch(Lab.routes(new ConfigBuilder(PORTS, 400), PORTS).build(), rt, ALLOC, 1);
                for (int i = 0; i < PORTS; i++) {
                    ports[i] = new RecordingPort("p" + i, rt);
                    s.attach(s.config().ports().get(i).name(), ports[i]);
                }
                if (capture) {
                    try {
                        s.capture(w, 0);
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
                return s;
            });
            int burst = 4 * PORTS;
            long[] reads = new long[3];
            reads[0] = OwnerThread.call(rt, () -> sw.clock().reads());
            // one task: one frame to each port in turn, each port idle when its frame arrives
            // (400 Gb/s: a 330 B frame is on the wire for 7 ns)
            reads[1] = OwnerThread.call(rt, () -> {
                for (int k = 0; k < PORTS; k++) {
                    ports[k].deliver(frame(k, 0));
                }
                return sw.clock().reads();
            });
            reads[2] = OwnerThread.call(rt, () -> {
                for (int k = 0; k < burst; k++) {
                    ports[k % PORTS].deliver(frame(k % PORTS, 1 + k / PORTS));
                }
                return sw.clock().reads();
            });
            OwnerThread.await(() -> total(ports) == PORTS + burst);
            if (capture) {
                assertTrue(reads[1] - reads[0] >= PORTS, "a read per frame with a capture: " + (reads[1] - reads[0]));
                assertTrue(reads[2] - reads[1] >= burst, "a read per frame with a capture: " + (reads[2] - reads[1]));
            } else {
                assertEquals(1, reads[1] - reads[0], "a burst to idle ports reads the clock once");
                // every fourth frame finds its port busy at the remembered time: read again
                long second = reads[2] - reads[1];
                assertTrue(second >= 1 && second <= burst / 2 + 1, "reads for the second task: " + second);
            }
            for (int i = 0; i < PORTS; i++) {
                var data = ports[(i + 1) % PORTS].data();
                int[] psns = data.stream().mapToInt(Delivery::psn).toArray();
                assertEquals(5, psns.length);
                for (int k = 0; k < psns.length; k++) {
                    assertEquals(k, psns[k], "in order");
                }
            }
            assertEquals(0, OwnerThread.call(rt, () -> {
                long d = 0;
                for (int i = 0; i < PORTS; i++) {
                    d += sw.counters(i).totalDrops();
                }
                return d;
            }));
        }
    }

    private static int total(RecordingPort[] ports) {
        int n = 0;
        for (RecordingPort p : ports) {
            n += p.data().size();
        }
        return n;
    }

    private static ByteBuf frame(int from, int psn) {
        int to = (from + 1) % PORTS;
        return new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(from))
            .ipv4(Lab.hostIp(from), Lab.hostIp(to)).udp(0xC000 + from, 4791).dscpEcn(26, 2)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, 256).destQp(0x11 + from).psn(psn)
            .payload(new byte[256]).encode(ALLOC);
    }


}
