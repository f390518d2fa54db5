package io.rocelab.lab.cli;

import io.rocelab.lab.experiment.IncastExperiment;
import io.rocelab.lab.experiment.IncastResult;
import io.rocelab.lab.experiment.IncastSpec;
import io.rocelab.nic.cc.DcqcnParams;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code rocelab experiment}: experiments in virtual time, with figures, CSVs and plots. */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = "Experiments in deterministic virtual time: soft NICs and the soft switch on one scheduler.",
        subcommands = ExperimentCommand.Incast.class)
public final class ExperimentCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code rocelab experiment incast}: N senders to one receiver across a leaf. */
    @Command(name = "incast", mixinStandardHelpOptions = true,
            description = {"N senders write to one receiver across one leaf (lossless class: DSCP 26, PFC on priority "
                + "3, WRED/ECN on its queue), with or without DCQCN, in virtual time. Prints the figures (goodput, "
                + "Jain's fairness index, queue depth, PFC pauses, ECN marks, CNPs, drops, retransmissions) and writes "
                + "a CSV of the time series and PNG plots (per-flow rate, queue depth, pause state) to --out.",
                "DCQCN parameters: --cc-param NAME=VALUE with mlx5's cc_params names (see 'rocelab dcqcn replay "
                    + "--help')."})
    public static final class Incast implements Callable<Integer> {
        @Option(names = "--senders", defaultValue = "16", description = "N (default ${DEFAULT-VALUE})")
        int senders;

        @Option(names = "--cc", defaultValue = "dcqcn", description = "dcqcn or none (default ${DEFAULT-VALUE})")
        String cc;

        @Option(names = "--cc-param", paramLabel = "NAME=VALUE", description = "a DCQCN parameter, e.g. rp_time_reset=55")
        List<String> ccParams = List.of();

        @Option(names = "--link-gbps", defaultValue = "100", description = "link speed (default ${DEFAULT-VALUE})")
        int linkGbps;

        @Option(names = "--duration-us", defaultValue = "10000", description = "simulated time (default ${DEFAULT-VALUE})")
        long durationUs;

        @Option(names = "--sample-us", defaultValue = "10", description = "sampling period (default ${DEFAULT-VALUE})")
        long sampleUs;

        @Option(names = "--ecn-kmin", defaultValue = "100000", description = "WRED/ECN Kmin, bytes (default ${DEFAULT-VALUE})")
        long kmin;

        @Option(names = "--ecn-kmax", defaultValue = "400000", description = "WRED/ECN Kmax, bytes (default ${DEFAULT-VALUE})")
        long kmax;

        @Option(names = "--ecn-pmax", defaultValue = "20", description = "WRED/ECN Pmax, %% (default ${DEFAULT-VALUE})")
        int pmax;

        @Option(names = "--pg-dynamic-th", defaultValue = "0", description = "dynamic_th of the lossless PGs: each "
            + "pauses at 2^N times the pool's free bytes (default ${DEFAULT-VALUE}, the SN2700's; lower pauses sooner)")
        int pgDynamicTh;

        @Option(names = "--late-start-us", defaultValue = "0", description = "sender 1 starts this late")
        long lateStartUs;

        @Option(names = "--early-stop-us", defaultValue = "0", description = "sender 2 stops at this time")
        long earlyStopUs;

        @Option(names = "--seed", defaultValue = "1", description = "seed of the switch's WRED (default ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--out", paramLabel = "DIR", description = "where the CSV and the plots go (none if not given)")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            boolean dcqcn = switch (cc) {
                case "dcqcn" -> true;
                case "none" -> false;
                default -> throw new UserError("--cc must be dcqcn or none: '" + cc + "'");
            };
            DcqcnParams params = DcqcnParams.defaults();
            for (String a : ccParams) {
                try {
                    params = params.withAssignment(a);
                } catch (IllegalArgumentException e) {
                    throw new UserError("--cc-param: " + e.getMessage());
                }
            }
            IncastSpec s;
            try {
                s = new IncastSpec(senders, linkGbps, dcqcn, params, durationUs, sampleUs, 65_536, 8, kmin, kmax, pmax,
                    lateStartUs, earlyStopUs, seed, pgDynamicTh);
            } catch (IllegalArgumentException e) {
                throw new UserError(e.getMessage());
            }
            if (out != null) {
                Files.createDirectories(out);
            }
            PrintWriter w = spec.commandLine().getOut();
            long wall = System.nanoTime();
            IncastResult r = IncastExperiment.run(s);
            double seconds = (System.nanoTime() - wall) / 1e9;
            r.printSummary(w);
            w.printf(java.util.Locale.ROOT, "  wall time %.1f s: %.0f simulated us per wall second, %.2f M events/s%n",
                seconds, s.durationUs() / seconds, r.events() / seconds / 1e6);
            if (out != null) {
                String prefix = "incast-" + senders + "to1-" + cc;
                for (Path f : r.write(out, prefix)) {
                    w.println("  wrote " + f);
                }
            }
            w.flush();
            return 0;
        }
    }
}
