package io.rocelab.lab.cli.perftest;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.nic.NicTool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * perftest's eight tools as {@code rocelab} subcommands. picocli only routes: every argument after
 * the tool's name goes, untouched and in order, to perftest's own parser (with rocelab's
 * {@code --udp-frame}, {@code --in-process}, {@code --ip}, {@code --mac}, {@code --active-mtu},
 * {@code --psn-seed} taken out first), so the flags, messages and exit codes are perftest's.
 *
 * <pre>
 *   rocelab ib_write_bw --udp-frame 40000:40001                    # server
 *   rocelab ib_write_bw --udp-frame 40001:40000 127.0.0.1          # client
 *   rocelab ib_write_bw --in-process -s 4096                       # both in one process
 * </pre>
 */
public final class PerftestCommands {
    private PerftestCommands() {
    }

    /** Adds one subcommand per perftest tool, named as perftest names it. */
    public static void addTo(CommandLine rocelab) {
        for (TestKind kind : TestKind.values()) {
            CommandLine tool = new CommandLine(new Tool(kind));
            tool.getCommandSpec().usageMessage().description(
                    "perftest's " + kind.toolName() + " on the soft NIC; -h for its flags");
            rocelab.addSubcommand(kind.toolName(), tool);
        }
    }

    /** One tool: the raw arguments and the run. */
    @Command
    static final class Tool implements Callable<Integer> {
        private final TestKind kind;

        @Unmatched
        List<String> args = new ArrayList<>();

        Tool(TestKind kind) {
            this.kind = kind;
        }

        @Override
        public Integer call() {
            int status = NicTool.run(kind, args.toArray(new String[0]), System.out, System.err);
            System.out.flush();
            return status;
        }
    }
}
