package io.rocelab.perftest.cli;

import picocli.CommandLine.Option;

/**
 * perftest's flags, one group of {@link PerftestCommand} (a picocli mixin): how the two sides find each other and set up: the out-of-band TCP port, rdma_cm, the GID and IP version, the version exchange.
 * Values are kept as text, for {@link OptionsValidator} to check with perftest's messages.
 */
final class PeerFlags {
    @Option(names = {"-p", "--port"}, order = 12, paramLabel = "<port>") String port;
    @Option(names = {"-R", "--rdma_cm"}, order = 17) boolean rdmaCm;
    @Option(names = {"-x", "--gid-index"}, order = 11, paramLabel = "<index>") String gidIndex;
    @Option(names = "--ipv6", order = 39) boolean ipv6;
    @Option(names = "--source_ip", order = 42, paramLabel = "<ip>") String sourceIp;
    @Option(names = "--dont_xchg_versions", order = 38) boolean dontExchangeVersions;
}
