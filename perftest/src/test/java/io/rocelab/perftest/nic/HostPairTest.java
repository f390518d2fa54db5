package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A tool's server and client on two hosts whose ports and loops the caller owns. */
class HostPairTest {

    @Test
    void writeBwBetweenCallerOwnedHostsHandsBackEachNicsCounters() {
        try (RealTimeScheduler a = RealTimeScheduler.start("pair-a");
             RealTimeScheduler b = RealTimeScheduler.start("pair-b")) {
            InProcessLink link = InProcessLink.builder().name("pair").rateGbps(100).build(a, b);
            HostPair pair = new HostPair(new HostPair.Host("srv", "10.9.0.1", "02:00:00:09:00:01", a, link.portA()),
                new HostPair.Host("cli", "10.9.0.2", "02:00:00:09:00:02", b, link.portB()), 4096, 106);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            HostPair.Result r = pair.run(TestKind.WRITE_BW, new String[] {"-s", "4096", "-n", "200"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, r.status(), () -> err.toString(StandardCharsets.UTF_8));
            assertTrue(text.contains("#bytes     #iterations    BW peak[MB/sec]"), text);
            assertTrue(r.clientCounters().get(NicCounter.SENT_PKTS) >= 200, r.clientCounters()::toString);
            assertTrue(r.serverCounters().get(NicCounter.RCVD_PKTS) >= 200, r.serverCounters()::toString);
            assertTrue(link.portA().isUp(), "the caller's link is left as it was");
        }
    }

    @Test
    void aServerAddressOrUnsupportedFlagIsOneLineAndNoRun() {
        try (RealTimeScheduler a = RealTimeScheduler.start("pair-a")) {
            InProcessLink link = InProcessLink.builder().name("pair").rateGbps(100).build(a);
            HostPair pair = new HostPair(new HostPair.Host("srv", "10.9.0.1", "02:00:00:09:00:01", a, link.portA()),
                new HostPair.Host("cli", "10.9.0.2", "02:00:00:09:00:02", a, link.portB()), 4096, 0);
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
            PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
            assertEquals(1, pair.run(TestKind.WRITE_BW, new String[] {"10.9.0.1"}, o, e).status());
            assertEquals(1, pair.run(TestKind.WRITE_BW, new String[] {"-c", "UD"}, o, e).status());
            String[] lines = err.toString(StandardCharsets.UTF_8).strip().split("\n");
            assertEquals(2, lines.length, err::toString);
        }
    }
}
