package io.rocelab.lab.cli;

import io.rocelab.nic.cc.DcqcnParam;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.cc.DcqcnReplay;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rocelab dcqcn}: DCQCN tools. */
@Command(name = "dcqcn", description = "DCQCN tools (the reaction point under mlx5's cc_params).",
        mixinStandardHelpOptions = true, subcommands = DcqcnCommand.Replay.class)
public final class DcqcnCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Adds one option per DCQCN parameter ({@code --rp_ai_rate=N}, ...) to {@code command}, from the
     * parameter table, with its default and unit in the help.
     */
    static void addParamOptions(CommandLine command) {
        for (DcqcnParam p : DcqcnParam.values()) {
            command.getCommandSpec().addOption(OptionSpec.builder("--" + p.paramName())
                .paramLabel("N").type(String.class)
                .description((p.description() + " (" + p.unit() + ", default " + p.defaultValue() + ")").replace("%", "%%"))
                .build());
        }
    }

    /** The parameters given on {@code spec}'s command line, over the defaults. */
    static DcqcnParams paramsFrom(CommandSpec spec) {
        DcqcnParams params = DcqcnParams.defaults();
        for (DcqcnParam p : DcqcnParam.values()) {
            OptionSpec o = spec.findOption("--" + p.paramName());
            String value = o == null ? null : o.getValue();
            if (value != null) {
                try {
                    params = params.with(p.paramName(), value);
                } catch (IllegalArgumentException e) {
                    throw new UserError(e.getMessage());
                }
            }
        }
        return params;
    }

    /**
     * {@code rocelab dcqcn replay TRACE.csv}: the reaction point alone against a trace of CNP
     * arrival times, as a fluid source sending at Rc; prints its state as CSV.
     */
    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = {"Run the DCQCN reaction point alone against a trace of CNP arrival times, as a fluid "
                + "source that always sends at the current rate; print its state as CSV, one row per sample:",
                "time_us,rate_gbps,target_gbps,alpha,t_stage,b_stage",
                "TRACE.csv: a header line 'time_us', then one CNP arrival time in microseconds per line "
                + "(first column; further columns are ignored). Every parameter of mlx5's cc_params can be "
                + "set, e.g. --rp_ai_rate=10."})
    public static final class Replay implements Callable<Integer> {
        @Parameters(paramLabel = "TRACE.csv", description = "CNP arrival times (us), header 'time_us'")
        Path trace;

        @Option(names = "--line-rate-gbps", paramLabel = "GBPS", defaultValue = "100",
                description = "the port's line rate, where Rc and Rt start (default ${DEFAULT-VALUE})")
        BigDecimal lineRateGbps;

        @Option(names = "--sample-us", paramLabel = "US", defaultValue = "1",
                description = "sampling period in microseconds (default ${DEFAULT-VALUE})")
        BigDecimal sampleUs;

        @Option(names = "--duration-us", paramLabel = "US",
                description = "last sample time in microseconds (default: the last CNP + 5000)")
        BigDecimal durationUs;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            DcqcnParams params = paramsFrom(spec);
            if (lineRateGbps.signum() <= 0) {
                throw new UserError("--line-rate-gbps must be > 0: " + lineRateGbps.toPlainString());
            }
            long sampleNanos = nanos("--sample-us", sampleUs);
            if (sampleNanos <= 0) {
                throw new UserError("--sample-us must be at least 0.001: " + sampleUs.toPlainString());
            }
            long[] cnps = CnpTrace.read(trace);
            long durationNanos = durationUs != null ? nanos("--duration-us", durationUs)
                : (cnps.length == 0 ? 0 : cnps[cnps.length - 1]) + 5_000_000;
            if (durationNanos / sampleNanos > 50_000_000) {
                throw new UserError("--duration-us / --sample-us gives more than 50,000,000 rows; sample less often");
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("time_us,rate_gbps,target_gbps,alpha,t_stage,b_stage");
            new DcqcnReplay(params, lineRateGbps.doubleValue() * 1e9).run(cnps, sampleNanos, durationNanos,
                s -> out.println(micros(s.timeNanos()) + "," + gbps(s.rateBitsPerSecond()) + ","
                    + gbps(s.targetBitsPerSecond()) + "," + String.format(Locale.ROOT, "%.6f", s.alpha()) + ","
                    + s.timerStage() + "," + s.byteStage()));
            out.flush();
            return 0;
        }

        private static long nanos(String option, BigDecimal us) {
            if (us.signum() < 0) {
                throw new UserError(option + " must be >= 0: " + us.toPlainString());
            }
            try {
                return us.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
            } catch (ArithmeticException e) {
                throw new UserError(option + " is too large: " + us.toPlainString());
            }
        }

        private static String micros(long nanos) {
            return BigDecimal.valueOf(nanos, 3).stripTrailingZeros().toPlainString();
        }

        private static String gbps(double bitsPerSecond) {
            return String.format(Locale.ROOT, "%.6f", bitsPerSecond / 1e9);
        }
    }
}
