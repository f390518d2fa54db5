package io.rocelab.perftest.cli;

import picocli.CommandLine.Option;

/**
 * perftest's flags, one group of {@link PerftestCommand} (a picocli mixin): rate limiting and QoS: the rate limiter, its units, kind and bursts, the service level and the IP traffic class.
 * Values are kept as text, for {@link OptionsValidator} to check with perftest's messages.
 */
final class RateQosFlags {
    @Option(names = "--rate_limit", order = 48, paramLabel = "<rate>") String rateLimit;
    @Option(names = "--rate_units", order = 49, paramLabel = "<units>") String rateUnits;
    @Option(names = "--rate_limit_type", order = 50, paramLabel = "<type>") String rateLimitType;
    @Option(names = "--burst_size", order = 51, paramLabel = "<size>") String burstSize;
    @Option(names = {"-S", "--sl"}, order = 28, paramLabel = "<sl>") String sl;
    @Option(names = {"-T", "--tos"}, order = 29, paramLabel = "<tos value>") String tos;
}
