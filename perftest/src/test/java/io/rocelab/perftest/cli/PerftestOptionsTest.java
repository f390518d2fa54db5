package io.rocelab.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.report.PerftestFormats;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** perftest's defaults and adjustments, as {@code parser} and {@code force_dependecies} make them. */
class PerftestOptionsTest {

    private static PerftestOptions parse(TestKind kind, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PerftestTool.Parsed p = PerftestTool.parse(kind, args, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
        if (p.options() == null) {
            throw new AssertionError("refused: " + err);
        }
        return p.options();
    }

    @Test
    void dualPortDoublesTheQpsAndPutsTheSecondHalfOnPortTwo() {
        // perftest's -O: ib_port 1, ib_port2 2, num_of_qps *= 2 (force_dependecies)
        PerftestOptions o = parse(TestKind.WRITE_BW, "-O", "-q", "3");
        assertTrue(o.dualPort());
        assertEquals(6, o.numQps());
        assertEquals(List.of(1, 1, 1, 2, 2, 2), java.util.stream.IntStream.range(0, 6).map(o::portOfQp).boxed().toList());
        PerftestOptions one = parse(TestKind.READ_BW, "-O");
        assertEquals(2, one.numQps());
        assertEquals(List.of(1, 2), List.of(one.portOfQp(0), one.portOfQp(1)));
        PerftestOptions plain = parse(TestKind.WRITE_BW, "-i", "2", "-q", "2");
        assertFalse(plain.dualPort());
        assertEquals(List.of(2, 2), List.of(plain.portOfQp(0), plain.portOfQp(1)));
    }

    @Test
    void writeBandwidthDefaults() {
        PerftestOptions o = parse(TestKind.WRITE_BW);
        assertTrue(o.isServer());
        assertNull(o.host());
        assertEquals(18515, o.port());
        assertEquals(65536, o.size());
        assertEquals(5000, o.iterations());
        assertEquals(128, o.txDepth());
        assertEquals(1, o.rxDepth());
        // 64 KiB messages are above perftest's 8 KiB CQ-moderation limit: every send is signalled
        assertEquals(1, o.cqModeration());
        assertEquals(0, o.inlineSize());
        assertEquals(1, o.outReads());
        assertEquals(ConnectionType.RC, o.connection());
        assertEquals(ReportUnit.MB_PER_SEC, o.reportUnit());
        assertEquals(-1, o.gidIndex());
        assertNull(o.requestedMtu());
        assertFalse(o.noPeak());
        assertEquals(List.of(65536L), o.sizes(Mtu.MTU_1024));
        assertTrue(o.notes().isEmpty());
    }

    @Test
    void otherBandwidthToolsRunAThousandIterations() {
        assertEquals(1000, parse(TestKind.READ_BW).iterations());
        assertEquals(1000, parse(TestKind.SEND_BW).iterations());
        assertEquals(1000, parse(TestKind.ATOMIC_BW).iterations());
        assertEquals(0, parse(TestKind.READ_BW).outReads(), "0 = the device maximum");
    }

    @Test
    void latencyDefaults() {
        PerftestOptions o = parse(TestKind.WRITE_LAT, "10.77.0.10");
        assertTrue(o.isClient());
        assertEquals("10.77.0.10", o.host());
        assertEquals(2, o.size());
        assertEquals(1000, o.iterations());
        assertEquals(1, o.txDepth());
        assertEquals(1, o.cqModeration());
        assertEquals(220, o.inlineSize());
        assertEquals(236, parse(TestKind.SEND_LAT).inlineSize());
        assertEquals(188, parse(TestKind.SEND_LAT, "-c", "UD").inlineSize());
        assertEquals(0, parse(TestKind.READ_LAT).inlineSize());
    }

    @Test
    void atomicDefaults() {
        PerftestOptions o = parse(TestKind.ATOMIC_BW, "-A", "CMP_AND_SWAP");
        assertEquals(8, o.size());
        assertEquals(AtomicType.CMP_AND_SWAP, o.atomicType());
        assertEquals(AtomicType.FETCH_AND_ADD, parse(TestKind.ATOMIC_LAT).atomicType());
        assertEquals(8, parse(TestKind.ATOMIC_BW, "-s", "8").size());
    }

    @Test
    void sizesWithSuffixesAndCNumbers() {
        assertEquals(4096, parse(TestKind.WRITE_BW, "-s", "4K").size());
        assertEquals(4096, parse(TestKind.WRITE_BW, "-s", "0x1000").size());
        assertEquals(1048576, parse(TestKind.WRITE_BW, "-s", "1M").size());
        assertEquals(8, parse(TestKind.WRITE_BW, "-s", "010").size());
        assertEquals(128, parse(TestKind.WRITE_BW, "-s", "64", "--size=128").size(), "the last flag wins");
    }

    @Test
    void allSizes() {
        PerftestOptions o = parse(TestKind.WRITE_BW, "-a");
        assertEquals(PerftestOptions.MAX_SIZE, o.size());
        List<Long> sizes = o.sizes(Mtu.MTU_1024);
        assertEquals(23, sizes.size());
        assertEquals(2L, sizes.get(0));
        assertEquals(8388608L, sizes.get(22));
        // a UD message must fit one MTU
        List<Long> ud = parse(TestKind.SEND_BW, "-a", "-c", "UD").sizes(Mtu.MTU_1024);
        assertEquals(List.of(2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L), ud);
    }

    @Test
    void durationRunsCountNoIterations() {
        PerftestOptions o = parse(TestKind.WRITE_BW, "-D", "10");
        assertTrue(o.durationMode());
        assertEquals(10, o.durationSeconds());
        assertEquals(0, o.iterations());
        assertEquals(2, o.marginSeconds());
        assertTrue(o.noPeak());
        PerftestOptions inf = parse(TestKind.WRITE_BW, "--run_infinitely");
        assertTrue(inf.runInfinitely());
        assertTrue(inf.durationMode());
        assertEquals(5, inf.durationSeconds());
    }

    @Test
    void derivedDepthsAndPeak() {
        assertEquals(100, parse(TestKind.WRITE_BW, "-n", "100", "-t", "512").txDepth(), "tx depth capped at iterations");
        assertEquals(100, parse(TestKind.SEND_BW, "-n", "100").rxDepth());
        assertEquals(102, parse(TestKind.SEND_BW, "-n", "101").rxDepth(), "odd send rx depth rounded up");
        assertEquals(1000, parse(TestKind.SEND_BW, "-c", "UC").rxDepth(), "UC/UD rx depth follows iterations");
        assertTrue(parse(TestKind.WRITE_BW, "-n", "30000").noPeak(), "no peak above 20000 iterations");
        assertTrue(parse(TestKind.SEND_BW).noPeak(), "a one-way send server computes no peak");
        assertFalse(parse(TestKind.SEND_BW, "host").noPeak());
        assertEquals(100, parse(TestKind.WRITE_BW, "-s", "4096").cqModeration());
        assertEquals(64, parse(TestKind.WRITE_BW, "-s", "4096", "-t", "64").cqModeration(), "moderation capped at tx depth");
    }

    @Test
    void adjustmentsLeaveNotesAsPerftestPrintsThem() {
        PerftestOptions o = parse(TestKind.WRITE_BW, "-l", "4", "-n", "100", "-s", "64");
        assertEquals(4, o.cqModeration());
        assertEquals(List.of(PerftestFormats.RESULT_LINE,
                "Post List requested - CQ moderation will be the size of the post list"), o.notes());
        PerftestOptions big = parse(TestKind.WRITE_BW, "-s", "65536", "-Q", "50");
        assertEquals(50, big.cqModeration());
        assertEquals(List.of(PerftestFormats.RESULT_LINE, "Warning: Large message requested and CQ moderation enabled",
                "Warning: It can lead to inaccurate results"), big.notes());
    }

    @Test
    void getoptConveniences() {
        PerftestOptions o = parse(TestKind.WRITE_BW, "-aF", "--iter=100", "10.0.0.1", "--report_gbits", "-x", "3");
        assertTrue(o.runAll());
        assertTrue(o.cpuFreqWarningsOff());
        assertEquals(100, o.iterations());
        assertEquals("10.0.0.1", o.host());
        assertEquals(ReportUnit.GBIT_PER_SEC, o.reportUnit());
        assertEquals(3, o.gidIndex());
        assertEquals(Mtu.MTU_2048, parse(TestKind.WRITE_BW, "-m", "2048").requestedMtu());
    }

    @Test
    void udDefaultSizeFollowsTheAgreedMtu() {
        PerftestOptions o = parse(TestKind.SEND_BW, "-c", "UD");
        assertEquals(65536, o.size(), "left alone until the MTU is agreed");
        PerftestOptions at1024 = o.forMtu(Mtu.MTU_1024);
        assertEquals(1024, at1024.size());
        assertEquals(List.of(" Max msg size in UD is MTU 1024", " Changing to this MTU"), at1024.notes());
        assertEquals(4096, o.forMtu(Mtu.MTU_4096).size());
        PerftestOptions asked = parse(TestKind.SEND_BW, "-c", "UD", "-s", "1024");
        assertEquals(1024, asked.forMtu(Mtu.MTU_1024).size());
        assertThrows(OptionException.class, () -> asked.forMtu(Mtu.MTU_512));
        assertEquals(4096, parse(TestKind.SEND_BW, "-s", "4096").forMtu(Mtu.MTU_256).size(), "only UD is limited");
    }
}
