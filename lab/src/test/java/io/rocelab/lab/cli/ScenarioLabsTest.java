package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.run.ShippedLabs;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario labs ({@code labs/*.yaml}) run as a user runs them: each claim must hold. */
class ScenarioLabsTest {
    @TempDir
    Path tmp;

    private CliRun runAllPass(String lab, String outName, String... claims) {
        return LabRuns.runAllPass(tmp.resolve(outName), lab, claims);
    }

    /** @return the text of a shipped lab file */
    private static String shipped(String name) throws IOException {
        try (InputStream in = ScenarioLabsTest.class.getClassLoader()
            .getResourceAsStream(ShippedLabs.PREFIX + name + ".yaml")) {
            assertTrue(in != null, name + " is shipped");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void listShowsTheScenarioLabs() {
        CliRun run = CliRun.of("lab", "list");
        assertEquals(0, run.exitCode(), run.err());
        for (String lab : List.of("ecmp-collision", "multi-tenant-fairness", "pfc-deadlock", "dcqcn-time-reset")) {
            assertTrue(run.out().lines().anyMatch(l -> l.startsWith(lab + " ")), lab + " in " + run.out());
        }
    }

    @Test
    void ecmpCollisionFlowletsBeatStaticHashing() throws IOException {
        String[] claims = {
            "static hashing leaves a spine at less than half the busiest one's load",
            "flowlets take at least 10 % of the load off the busiest spine",
            "flowlets finish the slowest flow at least 10 % sooner than static hashing",
            "every flow completes in every variant, without error completions",
            "DLB (flowlets by port quality) moves flowlets and takes at least 10 % of the load off the busiest spine",
            "DLB finishes the slowest flow at least 10 % sooner than static hashing, every flow without error",
            "per-packet spraying gives every spine at least 90 % of the busiest one's bytes",
            "sprayed packets arrive out of order, and NICs that go back N on a NAK retransmit and end later than with "
                + "flowlets"};
        CliRun run = runAllPass("ecmp-collision", "ecmp", claims);
        assertTrue(run.out().contains("5 variants (static, entropy, flowlets, dlb, spray)"), run.out());
        String counters = Files.readString(tmp.resolve("ecmp/counters.json"));
        assertTrue(counters.contains("\"spine3:Ethernet4\""), "each spine's link to leaf1 in counters.json");
        assertTrue(counters.contains("\"path_changes\""), "path changes of switches and ports in counters.json");
        // another pairing of the hosts hashes into another collision: the claims are not one hash's luck
        String other = shipped("ecmp-collision").replace("to: h4,", "to: hX7,").replace("to: h5,", "to: hX4,")
            .replace("to: h6,", "to: hX5,").replace("to: h7,", "to: hX6,").replace("to: hX", "to: h");
        Path f = tmp.resolve("ecmp-shifted.yaml");
        Files.writeString(f, other);
        runAllPass(f.toString(), "ecmp-shifted", claims);
    }

    @Test
    void multiTenantSharesFollowTheEtsWeights() {
        runAllPass("multi-tenant-fairness", "tenants",
            "the quiet tenant gets its weight's share of the link (40 %, within 5 %)",
            "the noisy tenant gets its weight's share (60 %, within 5 %)",
            "twice the incast does not take more than the noisy tenant's weight",
            "the quiet tenant's p99 latency stays under 60 us, with the incast and with twice the incast",
            "the incast's pauses never stop the quiet tenant's NICs",
            "in one shared class the quiet tenant gets less than a quarter of the link and about twice the latency");
    }

    @Test
    void aRingOfSwitchesDeadlocksAndTheWatchdogBreaksIt() throws IOException {
        runAllPass("pfc-deadlock", "deadlock",
            "without the watchdog the fabric freezes (not one message completes)",
            "every ring queue stays paused by the next switch, with frames waiting and nothing dropped",
            "the frozen QPs end in error completions",
            "the watchdog detects the stuck queues",
            "with the forward action the ring drains and every flow gets at least 40 % of a cable",
            "with the drop action the same traffic deadlocks again after each restore");
        String report = Files.readString(tmp.resolve("deadlock/report.md"));
        assertTrue(report.contains("IBV_WC_RETRY_EXC_ERR"), report);
    }

    @Test
    void aSweepOverRpTimeResetShowsEachSettingSideBySide() throws IOException {
        runAllPass("dcqcn-time-reset", "reset",
            "a 30 us period keeps a standing queue at least 30 % deeper than the default's",
            "with the default the senders share fairly over the second half",
            "the 30 us and default periods keep the link busy",
            "a 1500 us period leaves the link idle more than half the time");
        Path out = tmp.resolve("reset");
        List<String> rows = Files.readAllLines(out.resolve("variants.csv"));
        assertEquals("variant,converged_us,standing_queue_kb,rate_gbps,longest_gap_us,errors", rows.get(0));
        assertEquals(4, rows.size(), rows.toString());
        assertTrue(rows.get(2).startsWith("reset_300,") && !rows.get(2).startsWith("reset_300,,"),
            "the default converges: " + rows);
        for (String png : List.of("variants-convergence.png", "variants-queue.png", "variants-gap.png")) {
            BufferedImage img = ImageIO.read(out.resolve(png).toFile());
            assertTrue(img.getWidth() > 500, png);
        }
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("## Variants side by side") && report.contains("| reset_1500 | "), report);
    }

    @Test
    void failoverTimingFollowsTheAckTimeoutAndTooFewRetriesFail() throws IOException {
        runAllPass("failover-timing", "failover",
            "with 7 retries every timeout outlasts the outage and the flow completes",
            "the gap grows with the ACK timeout",
            "3 retries of 1 ms are spent before the cable is back (IBV_WC_RETRY_EXC_ERR)");
        Path out = tmp.resolve("failover");
        List<String> rows = Files.readAllLines(out.resolve("variants.csv"));
        assertEquals(6, rows.size(), rows.toString());
        assertTrue(rows.get(5).startsWith("t8_retry3,") && !rows.get(5).endsWith(",0"), "the failed one's errors: " + rows);
        assertTrue(ImageIO.read(out.resolve("variants-gap.png").toFile()).getWidth() > 500);
        String report = Files.readString(out.resolve("report.md"));
        assertTrue(report.contains("IBV_WC_RETRY_EXC_ERR"), "the failed flow's error completions by status");
    }

    @Test
    void aClientReconnectsThroughRdmaCmAfterItsRetriesAreSpent() throws IOException {
        runAllPass("reconnect", "reconnect",
            "the QP exhausts its retries and the client sees error completions",
            "it reconnects through rdma_cm once and completes every message",
            "waiting 50 ms, the transfer stands still less than 60 ms",
            "reconnecting after 1 ms, its REQ is lost and the transfer waits for rdma_cm's REQ timeout");
        String report = Files.readString(tmp.resolve("reconnect").resolve("report.md"));
        assertTrue(report.contains("IBV_WC_RETRY_EXC_ERR=1"), report);
    }

    @Test
    void sonicDefaultsMarkEcnBeforeTheyPause() throws IOException {
        runAllPass("ecn-before-pfc", "ecn-before-pfc",
            "the leaf marks ECN and the receiver sends CNPs before the first pause",
            "no pause in the second half",
            "the senders share the link fairly in the second half",
            "nothing is dropped");
        // the lab sets no threshold of its own: the defaults are what is tested
        String lab = shipped("ecn-before-pfc");
        assertFalse(lab.contains("ecn:") || lab.contains("pfc:") || lab.contains("cc-params"), lab);
    }

    @Test
    void aHeadroomForTheWrongCableDropsAndTheRightOneDoesNot() {
        runAllPass("pfc-headroom", "headroom",
            "every variant pauses the senders",
            "a headroom sized for 5 m drops frames in the lossless class on 1 km cables",
            "the headroom for the real cable loses nothing, static or dynamic",
            "the flows complete their messages without error completions in every variant");
    }

    @Test
    void aFlowletTimeoutIsWholeMicroseconds() throws IOException {
        Path f = tmp.resolve("bad-flowlet.yaml");
        Files.writeString(f, """
            name: bad-flowlet
            duration: 100us
            topology:
              leaf-spine: {leaves: 1, spines: 1}
              flowlet-timeout: 2500ns
            flows: [{name: f, from: h0, to: h1}]
            """);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out());
        assertEquals(1, check.err().lines().count(), check.err());
        assertTrue(check.err().contains("topology.flowlet-timeout: the flowlet timeout is a whole number of microseconds"),
            check.err());
    }
}
