package io.rocelab.perftest.nic;

import io.rocelab.perftest.cli.OptionException;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * rocelab's own flags of the perftest and pingpong tools as picocli reads them (a mixin; see
 * {@link NicOptions} for what each means): everything else on the command line, in order, is
 * perftest's (picocli's unmatched arguments), for perftest's own parser. Each value flag keeps every value
 * given, in order, as text, for {@link NicOptions#split} to check with its own messages; picocli
 * takes {@code --flag value} and {@code --flag=value}, exact names only (no abbreviations, which
 * are perftest's), and no {@code @file} expansion. A flag without its value, or a value on
 * {@code --in-process} or {@code --busy-poll}, is one line naming it ({@link OptionException}).
 */
@Command
public final class NicFlags {
    @Option(names = "--in-process") boolean inProcess;
    @Option(names = "--busy-poll") boolean busyPoll;
    @Option(names = "--roce-v1") boolean roceV1;
    @Option(names = "--bond") List<String> bond = new ArrayList<>();
    @Option(names = "--udp-frame") List<String> udpFrame = new ArrayList<>();
    @Option(names = "--udp-endpoint") List<String> udpEndpoint = new ArrayList<>();
    @Option(names = "--raw") List<String> raw = new ArrayList<>();
    @Option(names = "--udp-frame2") List<String> udpFrame2 = new ArrayList<>();
    @Option(names = "--raw2") List<String> raw2 = new ArrayList<>();
    @Option(names = "--ip2") List<String> ip2 = new ArrayList<>();
    @Option(names = "--mac2") List<String> mac2 = new ArrayList<>();
    @Option(names = "--ip") List<String> ip = new ArrayList<>();
    @Option(names = "--ip6") List<String> ip6 = new ArrayList<>();
    @Option(names = "--mac") List<String> mac = new ArrayList<>();
    @Option(names = "--active-mtu") List<String> activeMtu = new ArrayList<>();
    @Option(names = "--capture") List<String> capture = new ArrayList<>();
    @Option(names = "--capture-frames") List<String> captureFrames = new ArrayList<>();
    @Option(names = "--cc") List<String> cc = new ArrayList<>();
    @Option(names = "--cc-param") List<String> ccParams = new ArrayList<>();
    @Option(names = "--pfc-storm") List<String> pfcStorm = new ArrayList<>();
    @Option(names = "--pause-response") List<String> pauseResponse = new ArrayList<>();
    @Option(names = "--pause") List<String> pause = new ArrayList<>();
    @Option(names = "--psn-seed") List<String> psnSeed = new ArrayList<>();
    @Option(names = "--trust") List<String> trust = new ArrayList<>();
    @Option(names = "--pfc") List<String> pfc = new ArrayList<>();
    @Option(names = "--dcbx") List<String> dcbx = new ArrayList<>();

    /** The arguments that are not rocelab's, in order: perftest's command line. */
    List<String> perftestArgs = List.of();

    /**
     * Reads rocelab's flags out of {@code args} (which hold no {@code --}: what follows it is
     * perftest's alone).
     *
     * @throws OptionException a flag without its value, or a value on a flag that takes none
     */
    static NicFlags parse(String[] args) {
        NicFlags flags = new NicFlags();
        CommandLine cl = new CommandLine(flags);
        cl.setExpandAtFiles(false);
        cl.setOverwrittenOptionsAllowed(true);
        cl.setUnmatchedArgumentsAllowed(true);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.MissingParameterException e) {
            throw new OptionException(" " + name(e.getMissing().get(0)) + " needs a value");
        } catch (CommandLine.ParameterException e) {
            ArgSpec spec = e.getArgSpec();
            if (spec instanceof OptionSpec o && o.arity().max() == 0) {
                throw new OptionException(" " + name(o) + " takes no value");
            }
            throw new OptionException(" " + e.getMessage());
        }
        flags.perftestArgs = cl.getUnmatchedArguments();
        return flags;
    }

    private static String name(ArgSpec spec) {
        return spec instanceof OptionSpec o ? o.longestName() : spec.paramLabel();
    }
}
