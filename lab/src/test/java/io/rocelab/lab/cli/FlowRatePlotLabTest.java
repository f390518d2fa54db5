package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.report.Axis;
import io.rocelab.lab.report.FlowRatePlot;
import io.rocelab.lab.report.TimePlot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocelab lab run} of one flow paced at 20 Gb/s with DCQCN on: {@code flow-rate.csv} keeps the
 * completed rate (64 KiB at a time: 0 or 52 Gb/s per 10 us) and adds what the flow put on the wire and
 * its DCQCN rate; the plot made from them reads as the steady 20 Gb/s it is.
 */
class FlowRatePlotLabTest {
    @TempDir
    Path tmp;

    @Test
    void aPacedFlowPlotsAsASteadyLineWithItsDcqcnRate() throws IOException {
        Path lab = tmp.resolve("steady.yaml");
        Files.writeString(lab, """
            name: steady
            duration: 2ms
            topology:
              leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2, host-speed: 100G}
            nics: {cc: dcqcn}
            flows:
              - {name: paced, from: h1, to: h0, size: 64KiB, rate: 20G}
            probes: {interval: 10us}
            """);
        Path out = tmp.resolve("out");
        CliRun run = CliRun.of("lab", "run", lab.toString(), "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(Files.size(out.resolve("flow-rate.png")) > 0);
        List<String> rows = Files.readAllLines(out.resolve("flow-rate.csv"));
        assertEquals("time_us,rate_paced_gbps,wire_paced_gbps,cc_paced_gbps", rows.get(0));
        int n = rows.size() - 1;
        double[] t = new double[n];
        double[][] col = new double[3][n];
        for (int i = 0; i < n; i++) {
            String[] c = rows.get(i + 1).split(",");
            t[i] = Double.parseDouble(c[0]);
            for (int k = 0; k < 3; k++) {
                col[k][i] = Double.parseDouble(c[k + 1]) * 1e9;
            }
        }
        assertTrue(largestMove(col[0]) > 0.2, "completions come a message at a time: " + largestMove(col[0]));
        double wire = Arrays.stream(col[1], n / 2, n).average().orElseThrow() / 1e9;
        assertEquals(20, wire, 2, "on the wire at its pace, Gb/s");
        assertEquals(100, col[2][n - 1] / 1e9, 1, "DCQCN without congestion: the line rate");
        TimePlot p = FlowRatePlot.of(t, 2_000, List.of(new FlowRatePlot.Flow("paced", col[0], col[1], col[2])));
        double[] y = p.line("paced").y();
        assertTrue(largestMove(y) < 0.2, "the plotted rate moves by " + largestMove(y));
        assertEquals(TimePlot.Style.DASHED, p.line("paced CC rate").style());
        assertEquals("time (ms)", p.x().title());
        assertTrue(Axis.isOneTwoFive(p.x().step()) && Axis.isOneTwoFive(p.y().step()), p.x() + " " + p.y());
        assertEquals(100, p.y().max(), "up to the CC rate's 100 Gb/s");
    }

    /** A READ flow's data leaves the destination: its wire bytes are its responders' READ responses. */
    @Test
    void aReadFlowsWireBytesAreItsResponsesAndNoCcRunsWithoutIt() throws IOException {
        Path lab = tmp.resolve("read.yaml");
        Files.writeString(lab, """
            name: read
            duration: 500us
            topology:
              leaf-spine: {leaves: 1, spines: 1, hosts-per-leaf: 2, host-speed: 100G}
            flows:
              - {name: r, from: h1, to: h0, verb: read, size: 64KiB}
            probes: {interval: 10us}
            """);
        Path out = tmp.resolve("read");
        CliRun run = CliRun.of("lab", "run", lab.toString(), "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        List<String> rows = Files.readAllLines(out.resolve("flow-rate.csv"));
        assertEquals("time_us,rate_r_gbps,wire_r_gbps", rows.get(0), "no CC column where none runs");
        double completed = 0;
        double wire = 0;
        for (String r : rows.subList(1, rows.size())) {
            String[] c = r.split(",");
            completed += Double.parseDouble(c[1]);
            wire += Double.parseDouble(c[2]);
        }
        assertTrue(completed > 0, "the flow moved data");
        assertTrue(wire >= completed * 0.95 && wire <= completed * 1.2,
            "on the wire: its data and headers, " + wire + " against " + completed + " completed");
    }

    /**
     * The flow-rate plot made from a run's {@code flow-rate.csv} as the report makes it: each flow's
     * {@code rate_}, {@code wire_} and (if there) {@code cc_} columns.
     */
    static TimePlot plotOf(Path csv, double durationUs) throws IOException {
        List<String> rows = Files.readAllLines(csv);
        List<String> header = List.of(rows.get(0).split(","));
        int n = rows.size() - 1;
        double[][] col = new double[header.size()][n];
        for (int i = 0; i < n; i++) {
            String[] c = rows.get(i + 1).split(",");
            for (int k = 0; k < c.length; k++) {
                col[k][i] = Double.parseDouble(c[k]) * (k == 0 ? 1 : 1e9);
            }
        }
        List<FlowRatePlot.Flow> flows = new java.util.ArrayList<>();
        for (int k = 1; k < header.size(); k++) {
            String h = header.get(k);
            if (h.startsWith("rate_")) {
                String name = h.substring("rate_".length(), h.length() - "_gbps".length());
                int wire = header.indexOf("wire_" + name + "_gbps");
                int cc = header.indexOf("cc_" + name + "_gbps");
                flows.add(new FlowRatePlot.Flow(name, col[k], wire < 0 ? null : col[wire], cc < 0 ? null : col[cc]));
            }
        }
        return FlowRatePlot.of(col[0], durationUs, flows);
    }

    /** The largest relative move from one sample to the next over the second half. */
    private static double largestMove(double[] y) {
        double worst = 0;
        for (int i = y.length / 2 + 1; i < y.length; i++) {
            worst = Math.max(worst, Math.abs(y[i] - y[i - 1]) / Math.max(y[i - 1], 1));
        }
        return worst;
    }
}
