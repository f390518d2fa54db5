package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code routing:} from lab files as a user runs them: the shipped uplink-failure lab with every claim
 * holding for several seeds, its report's routing timeline, and a mistake in the key as one line.
 */
class RoutingLabTest {
    private static final String[] CLAIMS = {
        "under static routes spine0 black-holes leaf1's traffic to leaf0",
        "and QPs hashed onto the dead path fail with IBV_WC_RETRY_EXC_ERR",
        "under eBGP every flow completes with no error completion",
        "leaf1 reroutes within two processing times and the wire (100 us + 10 us) after the cut",
        "the flows' traffic gap stays under the reroute plus one ACK timeout",
        "a silent failure is found by BFD within 3 ms (1 ms x 3) and every flow completes without error",
        "its gap is bounded by BFD's detection, the withdrawal and one ACK timeout",
        "without BFD the hold timer finds it only after 2 to 3 s, long after the QPs' 8.6 ms retry budget",
    };

    private static final String SMALL = """
        name: small
        duration: 1ms
        topology:
          leaf-spine: {leaves: 2, spines: 2, hosts-per-leaf: 1}
        routing: {protocol: bgp}
        flows:
          - {name: f, from: h0, to: h1, messages: 10}
        expect:
          - flows.messages == 10 and flows.errors == 0
        """;

    @TempDir
    Path tmp;

    @Test
    void uplinkFailureHoldsItsClaimsForSeveralSeeds() throws IOException {
        for (String seed : new String[] {"1", "2", "3"}) {
            Path out = tmp.resolve("seed" + seed);
            CliRun run = CliRun.of("lab", "run", "uplink-failure", "--seed", seed, "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            for (String claim : CLAIMS) {
                assertTrue(run.out().contains("PASS  " + claim), "seed " + seed + ": " + claim + " in\n" + run.out());
            }
            assertFalse(run.out().contains("FAIL"), run.out());
            assertTrue(run.out().contains("  bgp: routing: eBGP converged 250.140us after the fabric came up; 3 route "
                + "changes during the run, the last at 400.034us\n"), run.out());
            String report = Files.readString(out.resolve("report.md"));
            assertTrue(report.contains("### Routing"), report);
            assertTrue(report.contains("eBGP converged before the workload started"), report);
            assertTrue(report.contains("| spine0 | 10.0.0.0/24 | (removed) |"), report);
            assertTrue(report.contains("| leaf1 | 10.0.0.0/24 | Ethernet12 |"), report);
            // bgp's routes at the end: leaf1 reaches rack 0 by spine1 alone
            assertTrue(report.contains("B>* 10.0.0.0/24 [20/0] via 10.254.0.6, Ethernet12, weight 1, 00:00:00\n"),
                report);
        }
    }

    @Test
    void aSpeakerPerSwitchCarriesASmallFabric() throws IOException {
        Path f = tmp.resolve("small.yaml");
        Files.writeString(f, SMALL);
        CliRun run = LabRuns.runAllPass(tmp.resolve("small"), f.toString());
        assertTrue(run.out().contains("PASS"), run.out());
    }

    @Test
    void aMistakeInRoutingIsOneLineAtItsKey() throws IOException {
        Path f = tmp.resolve("ospf.yaml");
        Files.writeString(f, SMALL.replace("{protocol: bgp}", "{protocol: ospf}"));
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertEquals(f + ":5:21: routing.protocol: must be static or bgp, not 'ospf'\n", check.err());
        Path g = tmp.resolve("static-bfd.yaml");
        Files.writeString(g, SMALL.replace("{protocol: bgp}", "{protocol: static, bfd: true, hold: 2s}"));
        CliRun both = CliRun.of("lab", "check", g.toString());
        assertEquals(2, both.exitCode(), both.out() + both.err());
        assertEquals(g + ":5:34: routing.bfd: only with protocol: bgp (static routes have no bfd)\n"
            + g + ":5:46: routing.hold: only with protocol: bgp (static routes have no hold)\n", both.err());
    }
}
