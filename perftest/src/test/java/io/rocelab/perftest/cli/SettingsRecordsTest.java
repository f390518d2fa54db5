package io.rocelab.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.RateLimitType;
import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings grouped by concern: each flag lands in its record, and the flat accessors read the records. */
class SettingsRecordsTest {

    private static PerftestOptions parse(TestKind kind, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PerftestTool.Parsed p = PerftestTool.parse(kind, args, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
        if (p.options() == null) {
            throw new OptionException(err.toString().trim());
        }
        return p.options();
    }

    @Test
    void eachFlagLandsInItsConcern() {
        PerftestOptions o = parse(TestKind.SEND_BW, "-s", "4096", "-n", "2000", "-q", "2", "--perform_warm_up",
                "-p", "19000", "-R", "-x", "3", "--ipv6", "--source_ip", "10.0.0.1", "--dont_xchg_versions",
                "-d", "rxe0", "-i", "1", "-m", "2048", "--mr_per_qp",
                "-c", "RC", "-t", "64", "-r", "256", "-l", "4", "-Q", "2", "-e", "-X", "1", "--use_old_post_send",
                "--report_gbits", "-W", "a,b", "-w", "1.5", "-y", "2.5", "-F",
                "-S", "3", "-T", "106", "--rate_limit", "10", "--rate_limit_type", "SW", "10.0.0.2");

        assertEquals(new TestShape(4096, true, false, 2000, 5, false, -1, false, false, 2, true), o.shape());
        assertEquals(new Peer("10.0.0.2", 19000, true, 3, true, "10.0.0.1", false), o.peer());
        assertEquals(new RdmaDevice("rxe0", 1, Mtu.MTU_2048, true, false), o.rdmaDevice());
        assertEquals(new Queues(ConnectionType.RC, 64, 256, 1, AtomicType.FETCH_AND_ADD, 0, 14, false, 4, 2, true,
                true, 1, true, false), o.queues());
        assertEquals(new Reporting(ReportUnit.GBIT_PER_SEC, List.of("a", "b"), false, false, false, false, 1.5, 2.5,
                true), o.reporting());
        assertEquals(3, o.rateQos().serviceLevel());
        assertEquals(106, o.rateQos().tos());
        assertEquals(RateLimitType.SW, o.rateQos().rateLimit().type());
        assertEquals(64, o.rateQos().rateLimit().burstSize(), "the burst defaults to the TX depth");
    }

    @Test
    void flatAccessorsReadTheRecords() {
        PerftestOptions o = parse(TestKind.WRITE_BW, "-s", "1K", "-d", "rxe1", "-x", "1", "-t", "32", "-N", "-S", "2",
                "host");
        assertEquals(o.shape().size(), o.size());
        assertEquals(1024, o.size());
        assertEquals(o.rdmaDevice().name(), o.device());
        assertEquals("rxe1", o.device());
        assertEquals(o.peer().gidIndex(), o.gidIndex());
        assertEquals(o.queues().txDepth(), o.txDepth());
        assertEquals(32, o.txDepth());
        assertTrue(o.reporting().noPeak());
        assertTrue(o.noPeak());
        assertEquals(2, o.serviceLevel());
        assertTrue(o.isClient());
        assertTrue(o.peer().isClient());
        assertFalse(o.peer().isServer());
    }

    @Test
    void toBuilderKeepsEveryRecord() {
        PerftestOptions o = parse(TestKind.READ_BW, "-s", "65536", "-o", "8", "-q", "4", "-D", "6", "-f", "1",
                "-W", "x", "--rate_limit", "5", "--rate_limit_type", "PP", "--rate_units", "M", "-u", "20", "h");
        PerftestOptions copy = o.toBuilder().build();
        assertEquals(o.kind(), copy.kind());
        assertEquals(o.shape(), copy.shape());
        assertEquals(o.peer(), copy.peer());
        assertEquals(o.rdmaDevice(), copy.rdmaDevice());
        assertEquals(o.queues(), copy.queues());
        assertEquals(o.reporting(), copy.reporting());
        assertEquals(o.rateQos(), copy.rateQos());
        assertEquals(o.notes(), copy.notes());
        assertEquals(o.warnings(), copy.warnings());
        assertTrue(copy.qpTimeoutRequested());
        assertEquals(20, copy.qpTimeout());
    }

    @Test
    void builderDefaultsArePerftestsAndCheckNothing() {
        PerftestOptions o = PerftestOptions.builder(TestKind.WRITE_LAT).build();
        assertTrue(o.isServer());
        assertNull(o.host());
        assertEquals(18515, o.port());
        assertEquals(1, o.ibPort());
        assertEquals(-1, o.gidIndex());
        assertEquals(2, o.size());
        assertEquals(1000, o.iterations());
        assertEquals(5, o.durationSeconds());
        assertEquals(-1, o.marginSeconds());
        assertEquals(14, o.qpTimeout());
        assertFalse(o.qpTimeoutRequested());
        assertEquals(-1, o.tos());
        assertNull(o.rateLimit());
        assertEquals(ReportUnit.MB_PER_SEC, o.reportUnit());
        // the builder checks nothing: a margin larger than half the duration is perftest's error only on a command line
        assertEquals(9, PerftestOptions.builder(TestKind.WRITE_BW).marginSeconds(9).build().marginSeconds());
        assertThrows(OptionException.class, () -> parse(TestKind.WRITE_BW, "-D", "4", "-f", "3"));
    }

    @Test
    void reportCountersAreCopied() {
        List<String> names = new ArrayList<>(List.of("a"));
        PerftestOptions.Builder b = PerftestOptions.builder(TestKind.WRITE_BW).reportCounters(names);
        names.add("b");
        PerftestOptions o = b.build();
        assertEquals(List.of("a"), o.reportCounters());
        assertThrows(UnsupportedOperationException.class, () -> o.reporting().reportCounters().add("c"));
    }

    @Test
    void perConcernParsersKeepPerftestsMessages() {
        assertEquals(4096, TestShape.parseSize("4K"));
        assertEquals(" Message Size should be between 1 and 8388608",
                assertThrows(OptionException.class, () -> TestShape.parseSize("9M")).getMessage());
        assertEquals(ConnectionType.UD, Queues.parseConnection("UD", io.rocelab.perftest.Verb.SEND));
        assertEquals(" UD connection only possible in SEND verb",
                assertThrows(OptionException.class,
                        () -> Queues.parseConnection("UD", io.rocelab.perftest.Verb.WRITE)).getMessage());
        assertEquals(AtomicType.CMP_AND_SWAP, Queues.parseAtomicType("CMP_AND_SWAP"));
        assertEquals(220, Queues.defaultInline(TestKind.WRITE_LAT, ConnectionType.RC));
        assertEquals(0, Queues.defaultInline(TestKind.WRITE_BW, ConnectionType.RC));
    }
}
