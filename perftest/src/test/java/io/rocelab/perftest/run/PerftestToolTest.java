package io.rocelab.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.report.BwMeasurement;
import io.rocelab.perftest.report.LatMeasurement;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class PerftestToolTest {

    private static String[] run(EngineFactory engines, TestKind kind, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = PerftestTool.run(kind, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), engines);
        return new String[] {String.valueOf(status), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void withoutANicTheToolSaysSoInOneLine() {
        String[] r = run(EngineFactory.unavailable(), TestKind.WRITE_BW, "-s", "64");
        assertEquals("1", r[0]);
        assertEquals(" ib_write_bw: the soft NIC's data path is not wired into perftest yet" + System.lineSeparator(),
                r[2]);
        assertEquals("", r[1]);
    }

    @Test
    void anEngineWithoutRdmaCmRefusesItInOneLineAndIsClosedOnce() {
        List<String> calls = new ArrayList<>();
        String[] r = run(options -> new RecordingEngine(calls), TestKind.WRITE_BW, "-R");
        assertEquals("1", r[0]);
        assertEquals(" ib_write_bw: this engine does not connect through rdma_cm (-R)" + System.lineSeparator(), r[2]);
        assertEquals(List.of("open", "close"), calls);
    }

    @Test
    void notesOfAdjustedSettingsGoToStdoutFirst() {
        List<String> calls = new ArrayList<>();
        String[] r = run(options -> new RecordingEngine(calls), TestKind.WRITE_BW, "-R", "-l", "4", "-n", "100");
        assertTrue(r[1].startsWith("-".repeat(87) + System.lineSeparator()
                + "Post List requested - CQ moderation will be the size of the post list"), r[1]);
    }

    /** An engine that only records that it was closed. */
    private record RecordingEngine(List<String> calls) implements TestEngine {
        @Override
        public DeviceInfo open(PerftestOptions options) {
            calls.add("open");
            return new DeviceInfo("rocelab0", "IB", "Ethernet", Mtu.MTU_1024, 128, 1);
        }

        @Override
        public List<KeyRecord> createQps(RunContext context) {
            throw new AssertionError("not expected");
        }

        @Override
        public void connect(List<KeyRecord> remote) {
            throw new AssertionError("not expected");
        }

        @Override
        public BwMeasurement runBandwidth(long size) {
            throw new AssertionError("not expected");
        }

        @Override
        public LatMeasurement runLatency(long size) {
            throw new AssertionError("not expected");
        }

        @Override
        public LatDuration runLatencyForDuration(long size) {
            throw new AssertionError("not expected");
        }

        @Override
        public void runInfinitely(long size, Consumer<BwMeasurement> eachPeriod) {
            throw new AssertionError("not expected");
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }
}
