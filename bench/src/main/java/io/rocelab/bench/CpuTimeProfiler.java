package io.rocelab.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time of the benchmark JVM per operation, as a secondary result {@value #LABEL}. Wall-clock
 * throughput drops whenever other processes take the core; CPU time per operation does not (much),
 * so on a shared machine it is the steadier basis for a ratio. It is the process's CPU time, so it
 * also counts the JIT and GC threads: negligible in steady state for single-threaded,
 * allocation-free benchmarks like these, and it only ever errs on the slow side.
 *
 * <p>Use: {@code -prof io.rocelab.bench.CpuTimeProfiler} (CodecBench adds it by itself).
 */
public final class CpuTimeProfiler implements InternalProfiler {
    public static final String LABEL = "cpu.time/op";

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long startCpuNs;

    @Override
    public String getDescription() {
        return "process CPU time per operation (steadier than wall time when other processes share the cores)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        startCpuNs = os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpuNs = os.getProcessCpuTime() - startCpuNs;
        // all operations the workers did between the two calls, not only those in the timed window
        long ops = result.getMetadata().getAllOps();
        if (ops <= 0 || cpuNs < 0) {
            return List.of();
        }
        return List.of(new ScalarResult(LABEL, (double) cpuNs / ops, "ns/op", AggregationPolicy.AVG));
    }
}
