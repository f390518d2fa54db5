package io.rocelab.perftest.cli;

import io.rocelab.perftest.TestKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

/**
 * The command line of one perftest tool, as picocli reads it. One class serves all eight tools:
 * perftest itself has one parser for all of them and rejects, per tool, the flags that make no
 * sense (no {@code -b} on a latency test, no {@code -A} outside the atomic tests). Values are kept
 * as text here so that {@link OptionsValidator} can reject them with perftest's own messages. The
 * flags are grouped by concern in mixins: how the sides reach each other ({@link PeerFlags}), the
 * test's shape ({@link TestShapeFlags}), the device ({@link DeviceFlags}), the QPs and work
 * requests ({@link QueueFlags}), the output ({@link ReportFlags}), rate limits and QoS
 * ({@link RateQosFlags}).
 */
@Command
public final class PerftestCommand {
    final TestKind kind;

    // perftest's flags by concern; picocli reads them as one set (abbreviations, a later flag wins)
    @Mixin PeerFlags peer = new PeerFlags();
    @Mixin TestShapeFlags shape = new TestShapeFlags();
    @Mixin DeviceFlags device = new DeviceFlags();
    @Mixin QueueFlags queues = new QueueFlags();
    @Mixin ReportFlags report = new ReportFlags();
    @Mixin RateQosFlags rate = new RateQosFlags();

    @Option(names = {"-h", "--help"}, order = 52) boolean help;
    @Option(names = {"-V", "--version"}, order = 53) boolean version;

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

    /**
     * Puts the options of {@code spec} in perftest's order (their {@code order}), the order of one
     * flat list of flags: picocli names the options an ambiguous abbreviation matches in this order
     * ({@code '--s' is not unique: it matches '--size', '--sl', '--source_ip'}), and the mixins
     * would otherwise give them group by group.
     */
    public static void inPerftestOrder(CommandSpec spec) {
        List<OptionSpec> options = new ArrayList<>(spec.options());
        options.sort(Comparator.comparingInt(OptionSpec::order));
        options.forEach(spec::remove);
        options.forEach(spec::addOption);
    }

    /** The checked settings; throws {@link OptionException} with perftest's message otherwise. */
    public PerftestOptions toOptions() {
        return OptionsValidator.validate(this);
    }
}
