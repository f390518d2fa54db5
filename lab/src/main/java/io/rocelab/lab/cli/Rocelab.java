package io.rocelab.lab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rocelab} command line: one entry point, one subcommand per tool (perftest's tools are
 * added by {@link CommandLines#create()}).
 */
@Command(name = "rocelab",
        mixinStandardHelpOptions = true,
        version = "rocelab 0.1.0",
        description = "Software RoCEv2 NIC, switch, perftest and captures.",
        subcommands = {DemoCommand.class, SwitchCommand.class, DecodeCommand.class, ReferenceCapturesCommand.class, DcqcnCommand.class, ExperimentCommand.class,
                LabCommand.class, ShowGidsCommand.class,
                CommandLine.HelpCommand.class})
public final class Rocelab implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(CommandLines.create().execute(args));
    }
}
