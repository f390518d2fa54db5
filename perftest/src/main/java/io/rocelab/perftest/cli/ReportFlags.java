package io.rocelab.perftest.cli;

import picocli.CommandLine.Option;

/**
 * perftest's flags, one group of {@link PerftestCommand} (a picocli mixin): what the output reports: units, counters, peak, cycles, histogram, the bandwidth and message-rate limits the result must meet, the CPU-frequency warning.
 * Values are kept as text, for {@link OptionsValidator} to check with perftest's messages.
 */
final class ReportFlags {
    @Option(names = "--report_gbits", order = 21) boolean reportGbits;
    @Option(names = {"-W", "--report-counters"}, order = 33, paramLabel = "<list of counter names>") String reportCounters;
    @Option(names = {"-N", "--noPeak"}, order = 34) boolean noPeak;
    @Option(names = {"-C", "--report-cycles"}, order = 35) boolean reportCycles;
    @Option(names = {"-H", "--report-histogram", "--report-histogrm"}, order = 36) boolean histogram;
    @Option(names = {"-U", "--report-unsorted"}, order = 37) boolean unsorted;
    @Option(names = {"-w", "--limit_bw"}, order = 30, paramLabel = "<value>") String limitBw;
    @Option(names = {"-y", "--limit_msgrate"}, order = 31, paramLabel = "<value>") String limitMsgRate;
    @Option(names = {"-F", "--CPU-freq"}, order = 13) boolean cpuFreq;
}
