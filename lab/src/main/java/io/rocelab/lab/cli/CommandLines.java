package io.rocelab.lab.cli;

import io.rocelab.lab.cli.perftest.PerftestCommands;
import io.rocelab.lab.cli.perftest.PingpongCommands;
import picocli.CommandLine;

/**
 * Builds the {@code rocelab} command line with the error handling users expect: a mistake in the
 * arguments is one line naming what is wrong and exit code 2, never a stack trace.
 */
public final class CommandLines {
    /** Exit code for a usage mistake or an unreadable input, as perftest and most Unix tools do. */
    public static final int USAGE_ERROR = 2;

    private CommandLines() {
    }

    public static CommandLine create() {
        CommandLine cl = new CommandLine(new Rocelab());
        PerftestCommands.addTo(cl);
        PingpongCommands.addTo(cl);
        DcqcnCommand.addParamOptions(cl.getSubcommands().get("dcqcn").getSubcommands().get("replay"));
        cl.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("rocelab: " + ex.getMessage());
            ex.getCommandLine().getErr().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help' for more information.");
            return USAGE_ERROR;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof UserError) {
                commandLine.getErr().println("rocelab: " + ex.getMessage());
                return USAGE_ERROR;
            }
            throw ex;
        });
        return cl;
    }
}
