package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lab with {@code nics: {out-of-order: true}} run as a user runs it, over two seeds: RC writes
 * with {@code verify: true} across a link that loses 1 % of its frames, so packets arrive after a
 * gap. In order (rxe's way) each gap is a sequence error NAK and a go-back-N; out of order the
 * receivers take the packets after a gap without a NAK, and the memory is byte-exact either way.
 */
class OutOfOrderLabTest {
    private static final String LAB = """
        name: ooo
        duration: 20ms
        topology:
          hosts: [h0, h1]
          switches: [{name: leaf0, ports: 2}]
          links:
            - {a: h0, b: leaf0:Ethernet0, loss: 1%}
            - {a: h1, b: leaf0:Ethernet4}
        flows:
          - {name: w, from: h0, to: h1, verb: write, size: 64KiB, messages: 40, qps: 2, ack-timeout: 8, verify: true}
        variants:
          inorder:
          ooo:
            nics: {out-of-order: true}
        expect:
          - claim: byte-exact in order
            check: inorder.flow("w").corrupt == 0 and inorder.flow("w").verified == 40 * 64KiB
          - claim: byte-exact out of order
            check: ooo.flow("w").corrupt == 0 and ooo.flow("w").verified == 40 * 64KiB
          - claim: in order a gap is NAKed
            check: inorder.nic("h1").out_of_sequence > 0 and inorder.nic("h1").ooo_placed == 0 and inorder.nic("h0").retransmissions > 0
          - claim: out of order the packets after a gap are placed
            check: ooo.nic("h1").ooo_placed > 0 and ooo.nic("h1").out_of_sequence >= ooo.nic("h1").ooo_placed
        """;

    @TempDir
    Path tmp;

    @Test
    void outOfOrderNicsPlaceThePacketsAfterAGapByteExactOverTwoSeeds() throws IOException {
        Path f = tmp.resolve("ooo.yaml");
        Files.writeString(f, LAB);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(0, check.exitCode(), check.err());
        for (String seed : new String[] {"1", "2"}) {
            CliRun run = CliRun.of("lab", "run", f.toString(), "--out", tmp.resolve("out" + seed).toString(),
                "--seed", seed);
            assertEquals(0, run.exitCode(), run.out() + run.err());
            for (String claim : new String[] {"byte-exact in order", "byte-exact out of order", "in order a gap is NAKed",
                "out of order the packets after a gap are placed"}) {
                org.junit.jupiter.api.Assertions.assertTrue(run.out().contains("PASS  " + claim),
                    claim + " in\n" + run.out());
            }
            org.junit.jupiter.api.Assertions.assertFalse(run.out().contains("FAIL"), run.out());
        }
    }
}
