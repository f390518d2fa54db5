package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * labs/fat-tree-spreading, run as a user runs it ({@code rocelab lab run fat-tree-spreading}): a
 * 128-host k=8 fat tree with 200 m cables, split into its 80 logical processes and run on the
 * machine's cores. Every claim holds at seeds 1 and 2 (without DCQCN the incast's pauses climb to
 * the cores and come back down into the writers' pod; with DCQCN the cores stay quiet, the switches
 * mark and h0 sends CNPs; nothing drops), and counters.json shows the pauses where the claims say.
 */
class FatTreeSpreadingLabTest {
    @TempDir
    Path tmp;

    @Test
    void pausesSpreadWithoutDcqcnAndStayNearTheIncastWithIt() throws Exception {
        Path out = tmp.resolve("ft");
        CliRun run = LabRuns.runAllPass(out, "fat-tree-spreading",
            "the lossless class drops nothing, with DCQCN or without",
            "without DCQCN the pauses climb from h0's edge switch through its pod's aggregation switches to the cores",
            "without DCQCN they come back down into the writers' pod, two hops from any congested port",
            "with DCQCN the cores send at most a tenth of those pauses, and none reaches the writers' pod",
            "with DCQCN the switches mark ECN and h0 sends CNPs; without it, neither",
            "no writer sees an error completion, with DCQCN or without");
        assertTrue(run.out().contains("pfc_only: parallel: 80 logical processes, lookahead 1us, "), run.out());
        JsonNode runs = new ObjectMapper().readTree(out.resolve("seed-1/counters.json").toFile()).get("runs");
        assertTrue(pfcTx(runs.get("pfc_only"), "core") > 0, "a core switch paused without DCQCN");
        assertEquals(0, pfcTx(runs.get("dcqcn"), "pod1-"), "nothing paused in the writers' pod with DCQCN");
        assertEquals(0, pfcTx(runs.get("pfc_only"), "pod7-"), "a pod the incast never crosses pauses nothing");
    }

    private static long pfcTx(JsonNode run, String prefix) {
        long sum = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = run.get("switches").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().startsWith(prefix)) {
                sum += e.getValue().get("pfc_tx").asLong();
            }
        }
        return sum;
    }
}
