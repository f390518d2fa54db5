package io.rocelab.bench;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link CodecBenchmarks} in one JMH run and prints each result beside its floor from that
 * same run:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar io.rocelab.bench.CodecBench [JMH options, e.g. -p buffer=pooledHeap -i 10]
 * </pre>
 *
 * Exit status 0 whatever the numbers are: a benchmark reports, it does not gate.
 */
public final class CodecBench {
    static final double ICRC_RATIO_GOAL = 0.8;
    static final double HEADER_DECODE_GOAL_MFPS = 10.0;

    private static final String ICRC_4K = "icrcVerifyWrite4k";
    private static final String FLOOR_4K = "bareCrc32";
    private static final String HEADER_SMALL = "headerOnlyDecodeSmall";
    private static final String ICRC_SMALL = "icrcVerifySmall";
    private static final String FLOOR_SMALL = "bareCrc32Small";

    private CodecBench() {
    }

    public static void main(String[] args) throws RunnerException {
        CommandLineOptions cli;
        try {
            cli = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("CodecBench: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (cli.shouldHelp()) {
            System.out.println("Usage: java -cp bench/target/benchmarks.jar " + CodecBench.class.getName()
                    + " [JMH options]\nRuns the codec benchmarks and prints them beside their floors. JMH options:");
            try {
                cli.showHelp();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return;
        }
        OptionsBuilder builder = new OptionsBuilder();
        builder.parent(cli);
        builder.addProfiler(CpuTimeProfiler.class);
        if (cli.getIncludes().isEmpty()) {
            builder.include(CodecBenchmarks.class.getName() + "\\.");
        }
        Options options = builder.build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.println();
        System.out.print(summary(results));
    }

    /**
     * One measured score: mean frames per second by the wall clock, its 99.9% confidence
     * half-width, and frames per second of CPU time ({@link CpuTimeProfiler}; NaN when absent).
     */
    record Score(double opsPerSecond, double error, double opsPerCpuSecond) {
        double relativeError() {
            return Double.isNaN(error) || opsPerSecond == 0 ? Double.NaN : error / opsPerSecond;
        }

        /** Signs that other processes shared the core: a wide interval, or wall clock and CPU time apart. */
        boolean disturbed() {
            double re = relativeError();
            double apart = Math.abs(opsPerSecond / opsPerCpuSecond - 1);
            return (!Double.isNaN(re) && re > NOISY) || (!Double.isNaN(apart) && apart > NOISY);
        }
    }

    /** 10%: above this, a ratio is flagged as measured on a disturbed machine. */
    private static final double NOISY = 0.10;

    static String summary(Collection<RunResult> results) {
        // buffer kind -> benchmark method -> score
        Map<String, Map<String, Score>> byBuffer = new TreeMap<>();
        for (RunResult r : results) {
            String method = r.getParams().getBenchmark();
            method = method.substring(method.lastIndexOf('.') + 1);
            String buffer = r.getParams().getParam("buffer");
            Result<?> primary = r.getPrimaryResult();
            double perSecond = toPerSecond(primary.getScore(), primary.getScoreUnit());
            double error = toPerSecond(primary.getScoreError(), primary.getScoreUnit());
            Result<?> cpu = r.getSecondaryResults().get(CpuTimeProfiler.LABEL);
            double perCpuSecond = cpu == null ? Double.NaN : 1e9 / cpu.getScore();
            byBuffer.computeIfAbsent(buffer, k -> new TreeMap<>())
                    .put(method, new Score(perSecond, error, perCpuSecond));
        }

        int frame4k = CodecBenchmarks.frameLength(CodecBenchmarks.LARGE_PAYLOAD);
        int frameSmall = CodecBenchmarks.frameLength(CodecBenchmarks.SMALL_PAYLOAD);
        int covered4k = CodecBenchmarks.icrcCoveredLength(CodecBenchmarks.LARGE_PAYLOAD);
        int coveredSmall = CodecBenchmarks.icrcCoveredLength(CodecBenchmarks.SMALL_PAYLOAD);
        Map<String, Integer> bytesPerOp = Map.of(
                ICRC_4K, frame4k, FLOOR_4K, covered4k,
                HEADER_SMALL, frameSmall, ICRC_SMALL, frameSmall, FLOOR_SMALL, coveredSmall);

        StringBuilder out = new StringBuilder();
        out.append("rocelab codec benchmarks: one frame per operation, floors measured in this run\n");
        out.append(String.format(Locale.ROOT, "%-45s %-28s %s%n", "", "-------- wall clock --------",
                "-- per CPU-second --"));
        out.append(String.format(Locale.ROOT, "%-22s %-13s %8s %19s %8s %10s %9s%n",
                "benchmark", "buffer", "bytes/op", "M frames/s", "Gb/s", "M frames/s", "Gb/s"));
        for (Map.Entry<String, Map<String, Score>> e : byBuffer.entrySet()) {
            for (Map.Entry<String, Score> m : e.getValue().entrySet()) {
                Score s = m.getValue();
                int bytes = bytesPerOp.getOrDefault(m.getKey(), 0);
                out.append(String.format(Locale.ROOT, "%-22s %-13s %8d %9.3f ± %-7s %8.1f %10.3f %9.1f%n",
                        m.getKey(), e.getKey(), bytes, s.opsPerSecond() / 1e6, plusMinus(s.error() / 1e6),
                        s.opsPerSecond() * bytes * 8 / 1e9, s.opsPerCpuSecond() / 1e6,
                        s.opsPerCpuSecond() * bytes * 8 / 1e9));
            }
        }
        out.append(String.format(Locale.ROOT,
                "bytes/op: the whole frame for the codec rows; for the floors, the %d B and %d B that the ICRC%n"
                        + "covers in the %d B and %d B frames. Verdicts use CPU time (other processes taking the%n"
                        + "core slow the wall clock, not the CPU time per frame); the wall-clock ratio follows.%n%n",
                covered4k, coveredSmall, frame4k, frameSmall));

        for (Map.Entry<String, Map<String, Score>> e : byBuffer.entrySet()) {
            String buffer = e.getKey();
            Map<String, Score> m = e.getValue();
            Score icrc4k = m.get(ICRC_4K);
            Score floor4k = m.get(FLOOR_4K);
            if (icrc4k != null && floor4k != null) {
                double ratio = ratio(icrc4k, floor4k);
                out.append(String.format(Locale.ROOT,
                        "[%s] codec ICRC verify / bare CRC32 = %.2f (goal >= %.1f): %s%s%n",
                        buffer, ratio, ICRC_RATIO_GOAL, ratio >= ICRC_RATIO_GOAL ? "met" : "NOT met",
                        wallRatio(icrc4k, floor4k)));
                out.append(noise(icrc4k, floor4k));
            }
            Score icrcSmall = m.get(ICRC_SMALL);
            Score floorSmall = m.get(FLOOR_SMALL);
            if (icrcSmall != null && floorSmall != null) {
                out.append(String.format(Locale.ROOT,
                        "[%s] codec ICRC verify / bare CRC32, %d B payload = %.2f (no goal)%s%n",
                        buffer, CodecBenchmarks.SMALL_PAYLOAD, ratio(icrcSmall, floorSmall),
                        wallRatio(icrcSmall, floorSmall)));
                out.append(noise(icrcSmall, floorSmall));
            }
            Score header = m.get(HEADER_SMALL);
            if (header != null) {
                double perCore = Double.isNaN(header.opsPerCpuSecond()) ? header.opsPerSecond()
                        : header.opsPerCpuSecond();
                double mfps = perCore / 1e6;
                out.append(String.format(Locale.ROOT,
                        "[%s] header-only decode: %.1f M frames/s (goal >= %.0f): %s; wall clock: %.1f%n", buffer,
                        mfps, HEADER_DECODE_GOAL_MFPS, mfps >= HEADER_DECODE_GOAL_MFPS ? "met" : "NOT met",
                        header.opsPerSecond() / 1e6));
            }
        }
        return out.toString();
    }

    /** By CPU time when the profiler ran, else by the wall clock. */
    private static double ratio(Score codec, Score floor) {
        double r = codec.opsPerCpuSecond() / floor.opsPerCpuSecond();
        return Double.isNaN(r) ? codec.opsPerSecond() / floor.opsPerSecond() : r;
    }

    private static String noise(Score codec, Score floor) {
        if (!codec.disturbed() && !floor.disturbed()) {
            return "";
        }
        return String.format(Locale.ROOT,
                "    (disturbed: a 99.9%% interval or a wall-clock/CPU-time gap above %.0f%%; floor at %.2f M frames/s"
                        + " wall, %.2f per CPU-second: re-run on a quiet machine before trusting this ratio)%n",
                NOISY * 100, floor.opsPerSecond() / 1e6, floor.opsPerCpuSecond() / 1e6);
    }

    private static String wallRatio(Score codec, Score floor) {
        double r = codec.opsPerSecond() / floor.opsPerSecond();
        return String.format(Locale.ROOT, "; wall clock: %.2f%s", r, ratioError(r, codec, floor));
    }

    /** " ± x" from the two scores' relative 99.9% half-widths added in quadrature; empty when unknown. */
    private static String ratioError(double ratio, Score a, Score b) {
        double ra = a.relativeError();
        double rb = b.relativeError();
        if (Double.isNaN(ra) || Double.isNaN(rb)) {
            return "";
        }
        return String.format(Locale.ROOT, " ± %.2f", ratio * Math.sqrt(ra * ra + rb * rb));
    }

    private static String plusMinus(double v) {
        return Double.isNaN(v) ? "?" : String.format(Locale.ROOT, "%.3f", v);
    }

    /** JMH reports throughput as "ops/s", "ops/ms", "ops/us" ... depending on -tu. */
    private static double toPerSecond(double value, String unit) {
        String per = unit.substring(unit.indexOf('/') + 1);
        return switch (per) {
            case "s" -> value;
            case "ms" -> value * 1e3;
            case "us" -> value * 1e6;
            case "ns" -> value * 1e9;
            case "min" -> value / 60;
            default -> throw new IllegalArgumentException("CodecBench needs throughput mode (-bm thrpt), got " + unit);
        };
    }
}
