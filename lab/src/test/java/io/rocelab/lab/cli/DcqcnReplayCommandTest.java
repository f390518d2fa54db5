package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab dcqcn replay} as a user runs it: a trace file in, CSV out, mistakes as one line. */
class DcqcnReplayCommandTest {
    @TempDir
    Path dir;

    private Path trace(String... lines) throws IOException {
        Path f = dir.resolve("trace.csv");
        Files.write(f, List.of(lines));
        return f;
    }

    private static List<String> rows(CliRun run) {
        return run.out().lines().toList();
    }

    @Test
    void printsOneRowPerSampleWithTheStateAfterTheEventsOfItsTime() throws IOException {
        CliRun run = CliRun.of("dcqcn", "replay", trace("time_us", "10").toString(), "--duration-us", "20");
        assertEquals(0, run.exitCode(), run.err());
        List<String> rows = rows(run);
        assertEquals("time_us,rate_gbps,target_gbps,alpha,t_stage,b_stage", rows.get(0));
        assertEquals(22, rows.size(), "a header and samples 0..20 us");
        assertEquals("0,100.000000,100.000000,0.999023,0,0", rows.get(1));
        assertEquals("13,100.000000,100.000000,0.989296,0,0", rows.get(14));
        // the first decrease check, 4 us after the CNP: Rc = 100 (1 - alpha/2)
        assertEquals("14,50.776733,100.000000,0.984465,0,0", rows.get(15));
    }

    @Test
    void parametersAndRatesComeFromTheCommandLine() throws IOException {
        CliRun run = CliRun.of("dcqcn", "replay", trace("time_us,note", "0,first").toString(), "--line-rate-gbps=25",
            "--rp_rate_to_set_on_first_cnp=10000", "--rp_rate_reduce_monitor_period=2", "--sample-us=0.5",
            "--duration-us=2");
        assertEquals(0, run.exitCode(), run.err());
        List<String> rows = rows(run);
        assertEquals(6, rows.size());
        assertTrue(rows.get(1).startsWith("0,10.000000,25.000000,"), rows.get(1));
        assertTrue(rows.get(2).startsWith("0.5,10.000000,"), rows.get(2));
        // 2 us: cut by about alpha/2 from 10 Gb/s
        assertTrue(rows.get(5).startsWith("2,5.0"), rows.get(5));
    }

    @Test
    void aBadParameterIsOneLineAndExitTwo() throws IOException {
        Path t = trace("time_us", "1");
        CliRun unknown = CliRun.of("dcqcn", "replay", t.toString(), "--rp_foo=1");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().startsWith("rocelab: Unknown option: '--rp_foo=1'"), unknown.err());
        CliRun range = CliRun.of("dcqcn", "replay", t.toString(), "--rp_gd=99");
        assertEquals(2, range.exitCode());
        assertEquals("rocelab: rp_gd must be 0..15 (log2): 99\n", range.err());
        CliRun word = CliRun.of("dcqcn", "replay", t.toString(), "--rp_ai_rate=fast");
        assertEquals(2, word.exitCode());
        assertEquals("rocelab: rp_ai_rate must be a whole number (Mb/s): 'fast'\n", word.err());
        assertEquals("", unknown.out() + range.out() + word.out(), "nothing printed on stdout");
    }

    @Test
    void aBadTraceLineGetsItsLineNumber() throws IOException {
        CliRun notANumber = CliRun.of("dcqcn", "replay", trace("time_us", "1", "# comment", "abc").toString());
        assertEquals(2, notANumber.exitCode());
        assertTrue(notANumber.err().endsWith("trace.csv:4: not a time in microseconds: 'abc'\n"), notANumber.err());
        CliRun backwards = CliRun.of("dcqcn", "replay", trace("time_us", "5", "3").toString());
        assertEquals(2, backwards.exitCode());
        assertTrue(backwards.err().endsWith("trace.csv:3: time 3 us is before the one on the line before it\n"),
            backwards.err());
        CliRun noHeader = CliRun.of("dcqcn", "replay", trace("5").toString());
        assertEquals(2, noHeader.exitCode());
        assertTrue(noHeader.err().contains("trace.csv:1: the first line must be the header 'time_us'"), noHeader.err());
        CliRun missing = CliRun.of("dcqcn", "replay", dir.resolve("none.csv").toString());
        assertEquals(2, missing.exitCode());
        assertFalse(missing.err().contains("Exception"), missing.err());
    }
}
