package io.rocelab.perftest.cli;

import io.rocelab.perftest.TestKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

/**
 * The command line of one perftest tool, as picocli reads it. One class serves all eight tools:
 * perftest itself has one parser for all of them and rejects, per tool, the flags that make no
 * sense (no {@code -b} on a latency test, no {@code -A} outside the atomic tests). Values are kept
 * as text here so that {@link OptionsValidator} can reject them with perftest's own messages.
 */
@Command
public final class PerftestCommand {
    final TestKind kind;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "<dev>") String ibDev;
    @Option(names = {"-i", "--ib-port"}, paramLabel = "<port>") String ibPort;
    @Option(names = {"-s", "--size"}, paramLabel = "<size>") String size;
    @Option(names = {"-n", "--iters"}, paramLabel = "<iters>") String iters;
    @Option(names = {"-D", "--duration"}, paramLabel = "<seconds>") String duration;
    @Option(names = {"-f", "--margin"}, paramLabel = "<seconds>") String margin;
    @Option(names = {"-a", "--all"}) boolean all;
    @Option(names = {"-q", "--qp"}, paramLabel = "<num of qp's>") String qp;
    @Option(names = {"-m", "--mtu"}, paramLabel = "<mtu>") String mtu;
    @Option(names = {"-b", "--bidirectional"}) boolean bidirectional;
    @Option(names = {"-x", "--gid-index"}, paramLabel = "<index>") String gidIndex;
    @Option(names = {"-p", "--port"}, paramLabel = "<port>") String port;
    @Option(names = {"-F", "--CPU-freq"}) boolean cpuFreq;
    @Option(names = {"-c", "--connection"}, paramLabel = "<type>") String connection;
    @Option(names = {"-t", "--tx-depth"}, paramLabel = "<dep>") String txDepth;
    @Option(names = {"-r", "--rx-depth"}, paramLabel = "<dep>") String rxDepth;
    @Option(names = {"-R", "--rdma_cm"}) boolean rdmaCm;
    @Option(names = {"-o", "--outs"}, paramLabel = "<num>") String outs;
    @Option(names = {"-A", "--atomic_type"}, paramLabel = "<type>") String atomicType;
    @Option(names = {"-I", "--inline_size"}, paramLabel = "<size>") String inlineSize;
    @Option(names = "--report_gbits") boolean reportGbits;
    @Option(names = "--run_infinitely") boolean runInfinitely;
    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "<timeout>") String qpTimeout;
    @Option(names = {"-l", "--post_list"}, paramLabel = "<list size>") String postList;
    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "<n>") String cqMod;
    @Option(names = {"-e", "--events"}) boolean events;
    @Option(names = {"-X", "--vector"}, paramLabel = "<completion vector>") String vector;
    @Option(names = {"-S", "--sl"}, paramLabel = "<sl>") String sl;
    @Option(names = {"-T", "--tos"}, paramLabel = "<tos value>") String tos;
    @Option(names = {"-w", "--limit_bw"}, paramLabel = "<value>") String limitBw;
    @Option(names = {"-y", "--limit_msgrate"}, paramLabel = "<value>") String limitMsgRate;
    @Option(names = {"-O", "--dualport"}) boolean dualPort;
    @Option(names = {"-W", "--report-counters"}, paramLabel = "<list of counter names>") String reportCounters;
    @Option(names = {"-N", "--noPeak"}) boolean noPeak;
    @Option(names = {"-C", "--report-cycles"}) boolean reportCycles;
    @Option(names = {"-H", "--report-histogram", "--report-histogrm"}) boolean histogram;
    @Option(names = {"-U", "--report-unsorted"}) boolean unsorted;
    @Option(names = "--dont_xchg_versions") boolean dontExchangeVersions;
    @Option(names = "--ipv6") boolean ipv6;
    @Option(names = "--use_old_post_send") boolean oldPostSend;
    @Option(names = "--use-srq") boolean srq;
    @Option(names = "--source_ip", paramLabel = "<ip>") String sourceIp;
    @Option(names = "--perform_warm_up") boolean warmUp;
    @Option(names = "--mr_per_qp") boolean mrPerQp;
    @Option(names = "--use_cuda", arity = "0..1", paramLabel = "<cuda device id>") String useCuda;
    @Option(names = "--use_cuda_bus_id", paramLabel = "<cuda full BUS id>") String useCudaBusId;
    @Option(names = "--use_rocm", paramLabel = "<rocm device id>") String useRocm;
    @Option(names = "--rate_limit", paramLabel = "<rate>") String rateLimit;
    @Option(names = "--rate_units", paramLabel = "<units>") String rateUnits;
    @Option(names = "--rate_limit_type", paramLabel = "<type>") String rateLimitType;
    @Option(names = "--burst_size", paramLabel = "<size>") String burstSize;
    @Option(names = {"-h", "--help"}) boolean help;
    @Option(names = {"-V", "--version"}) boolean version;

    @Parameters(paramLabel = "<host>", arity = "0..*") List<String> hosts = new ArrayList<>();

    @Unmatched List<String> unmatched = new ArrayList<>();

    public PerftestCommand(TestKind kind) {
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public TestKind kind() {
        return kind;
    }

    /** {@code -h}: the caller prints {@link PerftestUsage} and stops. */
    public boolean helpRequested() {
        return help;
    }

    /** {@code -V}: the caller prints the version and stops. */
    public boolean versionRequested() {
        return version;
    }

    /** The checked settings; throws {@link OptionException} with perftest's message otherwise. */
    public PerftestOptions toOptions() {
        return OptionsValidator.validate(this);
    }
}
