package io.rocelab.perftest.run;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.cli.PerftestCommand;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.cli.PerftestUsage;
import io.rocelab.perftest.oob.PerftestVersion;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import picocli.CommandLine;

/**
 * The entry point of {@code ib_write_bw}, {@code ib_read_lat} and the other six tools: the
 * command line in, perftest's output and exit status out. A mistake on the command line is one
 * line on stderr and exit status 1, as perftest does; help goes to stdout.
 */
public final class PerftestTool {
    /** Exit status of a run that did not complete, as perftest's {@code FAILURE}. */
    public static final int FAILURE = 1;

    private PerftestTool() {
    }

    /**
     * Runs one tool.
     *
     * @param engines makes the data path once the command line is valid
     * @return the exit status
     */
    public static int run(TestKind kind, String[] args, PrintStream out, PrintStream err, EngineFactory engines) {
        Objects.requireNonNull(kind, "kind");
        Parsed parsed = parse(kind, args, out, err);
        if (parsed.options() == null) {
            return parsed.exitStatus();
        }
        PerftestOptions options = parsed.options();
        options.notes().forEach(out::println);
        options.warnings().forEach(err::println);
        try {
            TestEngine engine = engines.create(options);
            return new PerftestSession(options, engine, out, err, Duration.ZERO).run();
        } catch (OptionException e) {
            err.println(e.getMessage());
            return FAILURE;
        } catch (Exception e) {
            err.println(" " + kind.toolName() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return FAILURE;
        }
    }

    /**
     * The outcome of reading a command line: the options to run with, or — after help, the version
     * or an error has been printed — the exit status to stop with.
     *
     * @param options    null when the tool should stop
     * @param exitStatus 0 after help or the version, {@link #FAILURE} after an error
     */
    public record Parsed(PerftestOptions options, int exitStatus) {
        static Parsed stop(int status) {
            return new Parsed(null, status);
        }
    }

    /** Parses and checks a command line; prints help, the version or the error itself. */
    public static Parsed parse(TestKind kind, String[] args, PrintStream out, PrintStream err) {
        PerftestCommand command = new PerftestCommand(kind);
        CommandLine cl = commandLine(command);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            err.println(" Invalid Command or flag: " + e.getMessage());
            return Parsed.stop(FAILURE);
        }
        if (command.helpRequested()) {
            out.print(PerftestUsage.render(kind));
            return Parsed.stop(0);
        }
        if (command.versionRequested()) {
            out.println("Version: " + PerftestVersion.ROCELAB);
            return Parsed.stop(0);
        }
        try {
            return new Parsed(command.toOptions(), 0);
        } catch (OptionException e) {
            err.println(e.getMessage());
            return Parsed.stop(FAILURE);
        }
    }

    /**
     * The picocli command line for a tool, set up to read flags as perftest's {@code getopt_long}
     * does: a later flag overrides an earlier one, long options may be abbreviated, and short
     * flags may be grouped ({@code -aF}).
     */
    public static CommandLine commandLine(PerftestCommand command) {
        CommandLine cl = new CommandLine(command);
        cl.setCommandName(command.kind().toolName());
        PerftestCommand.inPerftestOrder(cl.getCommandSpec());
        cl.setOverwrittenOptionsAllowed(true);
        cl.setAbbreviatedOptionsAllowed(true);
        cl.setPosixClusteredShortOptionsAllowed(true);
        return cl;
    }

    /**
     * {@code java ... PerftestTool ib_write_bw [flags] [host]}: the tool name, then perftest's
     * command line.
     */
    public static void main(String[] args) {
        if (args.length == 0 || TestKind.ofToolName(args[0]).isEmpty()) {
            System.err.println("usage: PerftestTool <ib_write_bw|ib_write_lat|ib_read_bw|ib_read_lat|ib_send_bw"
                    + "|ib_send_lat|ib_atomic_bw|ib_atomic_lat> [options] [host]");
            System.exit(2);
        }
        TestKind kind = TestKind.ofToolName(args[0]).orElseThrow();
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        System.exit(run(kind, rest, System.out, System.err, EngineFactory.unavailable()));
    }
}
