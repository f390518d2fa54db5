package io.rocelab.perftest.cli;

import picocli.CommandLine.Option;

/**
 * perftest's flags, one group of {@link PerftestCommand} (a picocli mixin): what the test runs: message size, iterations or duration, margins, bidirectional, the number of QPs, the warm-up.
 * Values are kept as text, for {@link OptionsValidator} to check with perftest's messages.
 */
final class TestShapeFlags {
    @Option(names = {"-s", "--size"}, order = 3, paramLabel = "<size>") String size;
    @Option(names = {"-n", "--iters"}, order = 4, paramLabel = "<iters>") String iters;
    @Option(names = {"-D", "--duration"}, order = 5, paramLabel = "<seconds>") String duration;
    @Option(names = {"-f", "--margin"}, order = 6, paramLabel = "<seconds>") String margin;
    @Option(names = {"-a", "--all"}, order = 7) boolean all;
    @Option(names = {"-b", "--bidirectional"}, order = 10) boolean bidirectional;
    @Option(names = "--run_infinitely", order = 22) boolean runInfinitely;
    @Option(names = {"-q", "--qp"}, order = 8, paramLabel = "<num of qp's>") String qp;
    @Option(names = "--perform_warm_up", order = 43) boolean warmUp;
}
