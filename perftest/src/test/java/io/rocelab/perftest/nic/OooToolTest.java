package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * perftest's {@code --use_ooo} ("Use out of order data placement") on the tools, run as a user runs
 * them: the test's QPs are created with out-of-order data placement, the header says so where
 * perftest does ("Using Enhanced Reorder"), the mlx5 counters are there to report, and a transport
 * that cannot have it is refused as perftest refuses it.
 */
@Timeout(120)
class OooToolTest {
    @Test
    void useOooRunsTheTestOnOutOfOrderQpsAndTheHeaderSaysSo() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--use_ooo", "-s", "8192", "-n", "200",
                "-W", "hw_counters/out_of_sequence,hw_counters/packet_seq_err,hw_counters/ooo_placed_packets");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains(" ibv_wr* API     : ON\t\tUsing Enhanced Reorder      : ON\n"), r.out());
        assertEquals(1, NicSessions.BwLine.all(r.out()).size(), r.out());
        assertTrue(r.out().contains("hw_counters/ooo_placed_packets"), r.out());
        assertTrue(r.out().contains("hw_counters/out_of_sequence"), r.out());
    }

    @Test
    void withoutItTheHeaderIsPerftestsAsBefore() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-s", "8192", "-n", "100");
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains(" ibv_wr* API     : ON\n"), r.out());
        assertFalse(r.out().contains("Enhanced Reorder"), r.out());
    }

    @Test
    void useOooOnUcIsRefusedAsPerftestRefusesIt() {
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--use_ooo", "-c", "UC");
        assertTrue(r.status() != 0);
        assertTrue((r.out() + r.err()).contains(" OOO unsupported by HCA on UC QP"), r.err() + r.out());
    }

    @Test
    void theUsageListsIt() {
        ToolResult r = ToolResult.of(TestKind.SEND_BW, "--help");
        assertTrue(r.out().contains("      --use_ooo  Use out of order data placement\n"), r.out());
    }
}
