package io.rocelab.lab.cli.perftest;

import io.rocelab.perftest.nic.PingpongTool;
import io.rocelab.perftest.pingpong.PingpongKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * rdma-core's {@code ibv_rc_pingpong}, {@code ibv_uc_pingpong} and {@code ibv_ud_pingpong} as
 * {@code rocelab} subcommands. As for perftest's tools, picocli only routes: the arguments go
 * untouched to the tool's own reader, so the flags, messages and exit codes are the tool's.
 *
 * <pre>
 *   rocelab ibv_rc_pingpong --in-process
 *   rocelab ibv_rc_pingpong --udp-frame 40000:40001 --ip 10.77.0.100 -g 1            # server
 *   rocelab ibv_rc_pingpong --udp-frame 40001:40000 --ip 10.77.0.101 -g 1 127.0.0.1  # client
 * </pre>
 */
public final class PingpongCommands {
    private PingpongCommands() {
    }

    /** Adds one subcommand per pingpong tool, named as rdma-core names it. */
    public static void addTo(CommandLine rocelab) {
        for (PingpongKind kind : PingpongKind.values()) {
            CommandLine tool = new CommandLine(new Tool(kind));
            tool.getCommandSpec().usageMessage().description(
                    "rdma-core's " + kind.toolName() + " on the soft NIC; -h for its flags");
            rocelab.addSubcommand(kind.toolName(), tool);
        }
    }

    /** One tool: the raw arguments and the run. */
    @Command
    static final class Tool implements Callable<Integer> {
        private final PingpongKind kind;

        @Unmatched
        List<String> args = new ArrayList<>();

        Tool(PingpongKind kind) {
            this.kind = kind;
        }

        @Override
        public Integer call() {
            int status = PingpongTool.run(kind, args.toArray(new String[0]), System.out, System.err);
            System.out.flush();
            return status;
        }
    }
}
