package io.rocelab.bench.sw;

import io.rocelab.bench.CpuTimeProfiler;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link LoadBalancingBenchmarks} for every mode in one JMH run and prints ns per packet of
 * each beside static ECMP's from the same run:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.rocelab.bench.sw.LoadBalancingBench [JMH options]
 * </pre>
 *
 * Exit status 0 whatever the numbers are: a benchmark reports, it does not gate.
 */
public final class LoadBalancingBench {
    private LoadBalancingBench() {
    }

    public static void main(String[] args) throws RunnerException {
        CommandLineOptions cli;
        try {
            cli = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("LoadBalancingBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        OptionsBuilder builder = new OptionsBuilder();
        builder.parent(cli);
        builder.addProfiler(CpuTimeProfiler.class);
        if (cli.getIncludes().isEmpty()) {
            builder.include(LoadBalancingBenchmarks.class.getName() + "\\.");
        }
        Collection<RunResult> results = new Runner(builder.build()).run();
        System.out.println();
        System.out.print(summary(results));
    }

    static String summary(Collection<RunResult> results) {
        Map<String, double[]> byMode = new LinkedHashMap<>();
        for (RunResult r : results) {
            var p = r.getPrimaryResult();
            var cpu = r.getSecondaryResults().get(CpuTimeProfiler.LABEL);
            byMode.put(r.getParams().getParam("mode"), new double[] {p.getScore(), p.getScoreError(),
                cpu == null ? Double.NaN : cpu.getScore()});
        }
        double[] ecmp = byMode.getOrDefault("ecmp", new double[] {Double.NaN, Double.NaN, Double.NaN});
        StringBuilder out = new StringBuilder("rocelab load balancing: ns per packet to choose an ECMP member ("
            + LoadBalancingBenchmarks.MEMBERS + " members, hash included), static ECMP measured in this run\n");
        out.append(String.format(Locale.ROOT, "%-16s %18s %8s %14s %8s%n", "mode", "wall ns/packet", "x ecmp",
            "CPU ns/packet", "x ecmp"));
        byMode.forEach((mode, s) -> out.append(String.format(Locale.ROOT, "%-16s %9.1f ± %-6.1f %8.2f %14.1f %8.2f%n",
            mode, s[0], s[1], s[0] / ecmp[0], s[2], s[2] / ecmp[2])));
        out.append("CPU ns: the JVM's CPU time per packet, steadier than the wall clock when other processes share "
            + "the cores.\n");
        return out.toString();
    }
}
