package io.rocelab.perftest.cli;

import picocli.CommandLine.Option;

/**
 * perftest's flags, one group of {@link PerftestCommand} (a picocli mixin): the QPs and their work requests: transport, queue depths, outstanding reads, atomics, inline size, ACK timeout, post list, CQ moderation and events, the post API, the SRQ.
 * Values are kept as text, for {@link OptionsValidator} to check with perftest's messages.
 */
final class QueueFlags {
    @Option(names = {"-c", "--connection"}, order = 14, paramLabel = "<type>") String connection;
    @Option(names = {"-t", "--tx-depth"}, order = 15, paramLabel = "<dep>") String txDepth;
    @Option(names = {"-r", "--rx-depth"}, order = 16, paramLabel = "<dep>") String rxDepth;
    @Option(names = {"-o", "--outs"}, order = 18, paramLabel = "<num>") String outs;
    @Option(names = {"-A", "--atomic_type"}, order = 19, paramLabel = "<type>") String atomicType;
    @Option(names = {"-I", "--inline_size"}, order = 20, paramLabel = "<size>") String inlineSize;
    @Option(names = {"-u", "--qp-timeout"}, order = 23, paramLabel = "<timeout>") String qpTimeout;
    @Option(names = {"-l", "--post_list"}, order = 24, paramLabel = "<list size>") String postList;
    @Option(names = {"-Q", "--cq-mod"}, order = 25, paramLabel = "<n>") String cqMod;
    @Option(names = {"-e", "--events"}, order = 26) boolean events;
    @Option(names = {"-X", "--vector"}, order = 27, paramLabel = "<completion vector>") String vector;
    @Option(names = "--use_old_post_send", order = 40) boolean oldPostSend;
    @Option(names = "--use-srq", order = 41) boolean srq;
    @Option(names = "--use_ooo", order = 42) boolean useOoo;
}
