package io.rocelab.bench.sw;

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
            byMode.put(r.getParams().getParam("mode"), new double[] {p.getScore(), p.getScoreError()});
        }
        double ecmp = byMode.containsKey("ecmp") ? byMode.get("ecmp")[0] : Double.NaN;
        StringBuilder out = new StringBuilder("rocelab load balancing: ns per packet to choose an ECMP member ("
            + LoadBalancingBenchmarks.MEMBERS + " members, hash included), static ECMP measured in this run\n");
        out.append(String.format(Locale.ROOT, "%-16s %16s %10s%n", "mode", "ns/packet", "x ecmp"));
        byMode.forEach((mode, s) -> out.append(String.format(Locale.ROOT, "%-16s %8.1f ± %-5.1f %10.2f%n", mode, s[0],
            s[1], s[0] / ecmp)));
        return out.toString();
    }
}
