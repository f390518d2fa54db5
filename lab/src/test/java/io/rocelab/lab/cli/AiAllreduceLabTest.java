package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * labs/ai-allreduce, run as a user runs it ({@code rocelab lab run ai-allreduce --seed N}): a ring
 * all-reduce and an all-to-all on a k=4 fat tree under static ECMP, flowlets, DLB and per-packet
 * spraying to out-of-order and to in-order NICs. Every claim holds at two seeds; the seed draws
 * the Poisson background, so the two runs' collectives differ.
 */
class AiAllreduceLabTest {
    @TempDir
    Path tmp;

    private static final List<String> VARIANTS = List.of("ecmp", "flowlet", "dlb", "spray_ooo", "spray_inorder");

    private static final String[] CLAIMS = {
        "every iteration of both collectives completes in every variant, without error completions",
        "the ring does not collide, its time the same within 5 % under ECMP, flowlets, DLB and spraying with "
            + "out-of-order NICs",
        "spraying with out-of-order NICs finishes the all-to-all at least 10 % sooner than static ECMP, its slowest "
            + "iteration too",
        "its all-to-all is faster than DLB's and within 5 % of flowlets'",
        "flowlets move flows (path changes) and finish the all-to-all at least 5 % sooner than static ECMP",
        "sprayed to out-of-order NICs, packets are placed out of order and nothing is retransmitted",
        "sprayed to in-order NICs, packets arrive out of sequence and are NAKed and resent (go-back-N)",
        "so the ring all-reduce takes at least 25 % longer sprayed to in-order NICs than under static ECMP"};

    @Test
    void everyClaimHoldsAtTwoSeedsAndTheReportTablesTheVariantsSideBySide() throws IOException {
        String[] sideBySide = new String[2];
        for (int seed = 1; seed <= 2; seed++) {
            Path out = tmp.resolve("ai-" + seed);
            CliRun run = CliRun.of("lab", "run", "ai-allreduce", "--seed", Integer.toString(seed), "--out",
                out.toString());
            assertEquals(0, run.exitCode(), "seed " + seed + ":\n" + run.out() + run.err());
            for (String claim : CLAIMS) {
                assertTrue(run.out().contains("PASS  " + claim), claim + " at seed " + seed + ":\n" + run.out());
            }
            assertFalse(run.out().contains("FAIL"), run.out());
            assertTrue(run.out().contains("5 variants (ecmp, flowlet, dlb, spray_ooo, spray_inorder)"), run.out());
            String report = Files.readString(out.resolve("report.md"));
            assertTrue(report.contains("### Collectives side by side"), report);
            for (String c : List.of("ar", "a2a")) {
                for (String v : VARIANTS) {
                    assertTrue(report.lines().anyMatch(l -> l.startsWith("| " + c + " | " + v + " | ")
                        && l.contains(" Gb/s |")), c + " under " + v + " in the side-by-side table");
                    List<String> csv = Files.readAllLines(out.resolve(v + "-collective-" + c + ".csv"));
                    assertEquals(4, csv.size(), "a header, a warm-up and 2 timed iterations: " + csv);
                }
            }
            if (seed == 1) {
                // the lab's header: sprayed to in-order NICs, a go-back-N loses its tail and the all-to-all's
                // warm-up waits for the 1.07 s ACK timeout, without an error completion
                String warmup = Files.readAllLines(out.resolve("spray_inorder-collective-a2a.csv")).get(1);
                assertTrue(warmup.startsWith("1,1,"), warmup);
                assertTrue(Double.parseDouble(warmup.split(",")[4]) > 1_000_000, "warm-up time_us: " + warmup);
            }
            sideBySide[seed - 1] = Files.readString(out.resolve("variants-collectives.csv"));
            String counters = Files.readString(out.resolve("counters.json"));
            assertTrue(counters.contains("\"ooo_placed\"") && counters.contains("\"out_of_sequence\""), counters);
        }
        assertNotEquals(sideBySide[0], sideBySide[1], "the seed's background moves the collectives' times");
    }
}
