package io.rocelab.perftest.cli;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.RateLimit;
import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.TestKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The settings of one perftest run after perftest's defaults, checks and adjustments
 * ({@code parser} and {@code force_dependecies}): what the run uses, not what the user typed.
 * {@link PerftestCommand} produces it from a command line; tests and embedders can build one
 * directly with {@link #builder(TestKind)}, which fills in the tool's defaults but checks nothing.
 *
 * <p>The settings are grouped by concern, as the flags are: the test's shape ({@link TestShape}),
 * how the sides reach each other ({@link Peer}), the device ({@link RdmaDevice}), the QPs and work
 * requests ({@link Queues}), the output ({@link Reporting}), rate limits and QoS ({@link RateQos}).
 * Each setting is also reachable here by its own name ({@code o.size()}); the records document
 * them, with the perftest flag that sets each.
 */
public final class PerftestOptions {
    /** perftest's {@code MAX_SIZE}: the largest message, and the last size of {@code -a}. */
    public static final long MAX_SIZE = TestShape.MAX_SIZE;
    private final TestKind kind;
    private final TestShape shape;
    private final Peer peer;
    private final RdmaDevice rdmaDevice;
    private final Queues queues;
    private final Reporting reporting;
    private final RateQos rateQos;
    private final List<String> notes;
    private final List<String> warnings;

    private PerftestOptions(Builder b) {
        this.kind = b.kind;
        this.shape = b.shape.build();
        this.peer = b.peer.build();
        this.rdmaDevice = b.rdmaDevice.build();
        this.queues = b.queues.build();
        this.reporting = b.reporting.build();
        this.rateQos = b.rateQos.build();
        this.notes = List.copyOf(b.notes);
        this.warnings = List.copyOf(b.warnings);
    }

    /** A builder holding the tool's perftest defaults. */
    public static Builder builder(TestKind kind) {
        return new Builder(kind);
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        Builder b = new Builder(kind);
        b.shape = new TestShape.Builder(shape);
        b.peer = new Peer.Builder(peer);
        b.rdmaDevice = new RdmaDevice.Builder(rdmaDevice);
        b.queues = new Queues.Builder(queues);
        b.reporting = new Reporting.Builder(reporting);
        b.rateQos = new RateQos.Builder(rateQos);
        b.notes = new ArrayList<>(notes);
        b.warnings = new ArrayList<>(warnings);
        return b;
    }

    /** True on the side that waits for a connection (no host given). */
    public boolean isServer() {
        return peer.isServer();
    }

    /** True on the side that connects and, in one-way tests, sends. */
    public boolean isClient() {
        return peer.isClient();
    }

    /**
     * The message sizes to run: with {@code -a} every power of two from 2 bytes to 8 MiB — to the
     * MTU on UD, whose messages must fit one packet — else the one size.
     */
    public List<Long> sizes(Mtu mtu) {
        if (!shape.runAll()) {
            return List.of(shape.size());
        }
        long largest = queues.connection() == ConnectionType.UD ? mtu.bytes() : MAX_SIZE;
        List<Long> sizes = new ArrayList<>(23);
        for (long s = 2; s <= largest; s <<= 1) {
            sizes.add(s);
        }
        return sizes;
    }

    /**
     * These settings for the MTU the peers agreed on: a UD message must fit it, so a default size
     * is lowered to the MTU (with a note) and a requested one is an error, as in perftest's
     * {@code check_mtu}. The notes of the result are the ones this step added.
     *
     * @throws OptionException when {@code -s} asked for a UD message larger than the MTU
     */
    public PerftestOptions forMtu(Mtu mtu) {
        Builder b = toBuilder();
        b.notes = new ArrayList<>();
        b.warnings = new ArrayList<>();
        OptionsValidator.checkUdSize(b, mtu);
        return b.build();
    }

    /** The tool being run. */
    public TestKind kind() {
        return kind;
    }

    /** What the run measures: sizes, iterations or duration, direction, QPs. */
    public TestShape shape() {
        return shape;
    }

    /** How the sides reach each other: host, out-of-band port, rdma_cm, GID. */
    public Peer peer() {
        return peer;
    }

    /** The device, its port and MTU, and how buffers are registered. */
    public RdmaDevice rdmaDevice() {
        return rdmaDevice;
    }

    /** The QPs and their work requests: transport, depths, inline, post list, CQ moderation. */
    public Queues queues() {
        return queues;
    }

    /** What the output reports and the result the run must meet. */
    public Reporting reporting() {
        return reporting;
    }

    /** The rate limiter, service level and type of service. */
    public RateQos rateQos() {
        return rateQos;
    }

    /** Lines perftest prints about settings it adjusted, in order, its rules included. */
    public List<String> notes() {
        return notes;
    }

    /** Lines perftest prints on stderr about settings it adjusted (" Setting burst size to tx depth = 128"). */
    public List<String> warnings() {
        return warnings;
    }

    // TestShape: one line each; see the record for what each setting means
    public long size() { return shape.size(); }
    public boolean sizeRequested() { return shape.sizeRequested(); }
    public boolean runAll() { return shape.runAll(); }
    public long iterations() { return shape.iterations(); }
    public int durationSeconds() { return shape.durationSeconds(); }
    public boolean durationMode() { return shape.durationMode(); }
    public int marginSeconds() { return shape.marginSeconds(); }
    public boolean runInfinitely() { return shape.runInfinitely(); }
    public boolean bidirectional() { return shape.bidirectional(); }
    public int numQps() { return shape.numQps(); }
    public boolean warmUp() { return shape.warmUp(); }

    // Peer: one line each; see the record for what each setting means
    public String host() { return peer.host(); }
    public int port() { return peer.port(); }
    public boolean rdmaCm() { return peer.rdmaCm(); }
    public int gidIndex() { return peer.gidIndex(); }
    public boolean ipv6() { return peer.ipv6(); }
    public String sourceIp() { return peer.sourceIp(); }
    public boolean exchangeVersions() { return peer.exchangeVersions(); }

    // RdmaDevice: one line each; see the record for what each setting means
    public String device() { return rdmaDevice.name(); }
    public int ibPort() { return rdmaDevice.ibPort(); }
    public Mtu requestedMtu() { return rdmaDevice.requestedMtu(); }
    public boolean mrPerQp() { return rdmaDevice.mrPerQp(); }
    /** {@code -O}: perftest's dual-port mode (the QPs' second half on port 2; {@link #numQps} counts both halves). */
    public boolean dualPort() { return rdmaDevice.dualPort(); }
    /**
     * The port QP {@code index} is bound to: {@link #ibPort}, or with {@code -O} port 2 for the
     * second half of the QPs (perftest's {@code qp_index % num_of_qps >= num_of_qps_per_port}).
     */
    public int portOfQp(int index) {
        return dualPort() && index >= numQps() / 2 ? RdmaDevice.IB_PORT2 : ibPort();
    }

    // Queues: one line each; see the record for what each setting means
    public ConnectionType connection() { return queues.connection(); }
    public int txDepth() { return queues.txDepth(); }
    public int rxDepth() { return queues.rxDepth(); }
    public int outReads() { return queues.outReads(); }
    public AtomicType atomicType() { return queues.atomicType(); }
    public int inlineSize() { return queues.inlineSize(); }
    public int qpTimeout() { return queues.qpTimeout(); }
    public boolean qpTimeoutRequested() { return queues.qpTimeoutRequested(); }
    public int postList() { return queues.postList(); }
    public int cqModeration() { return queues.cqModeration(); }
    public boolean cqModerationRequested() { return queues.cqModerationRequested(); }
    public boolean events() { return queues.events(); }
    public int eventVector() { return queues.eventVector(); }
    public boolean oldPostSend() { return queues.oldPostSend(); }
    public boolean srq() { return queues.srq(); }
    public boolean useOoo() { return queues.useOoo(); }

    // Reporting: one line each; see the record for what each setting means
    public ReportUnit reportUnit() { return reporting.reportUnit(); }
    public List<String> reportCounters() { return reporting.reportCounters(); }
    public boolean noPeak() { return reporting.noPeak(); }
    public boolean reportCycles() { return reporting.reportCycles(); }
    public boolean histogram() { return reporting.histogram(); }
    public boolean unsorted() { return reporting.unsorted(); }
    public double limitBw() { return reporting.limitBw(); }
    public double limitMsgRate() { return reporting.limitMsgRate(); }
    public boolean cpuFreqWarningsOff() { return reporting.cpuFreqWarningsOff(); }

    // RateQos: one line each; see the record for what each setting means
    public RateLimit rateLimit() { return rateQos.rateLimit(); }
    public int serviceLevel() { return rateQos.serviceLevel(); }
    public int tos() { return rateQos.tos(); }

    /**
     * Collects settings; every field starts at the tool's perftest default. Each concern's settings
     * are filled in one by one, as perftest's rules decide them, and become its record on
     * {@link #build()}.
     */
    public static final class Builder {
        private final TestKind kind;
        private TestShape.Builder shape;
        private Peer.Builder peer;
        private RdmaDevice.Builder rdmaDevice;
        private Queues.Builder queues;
        private Reporting.Builder reporting;
        private RateQos.Builder rateQos;
        private List<String> notes = new ArrayList<>();
        private List<String> warnings = new ArrayList<>();

        private Builder(TestKind kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
            shape = new TestShape.Builder(kind);
            peer = new Peer.Builder();
            rdmaDevice = new RdmaDevice.Builder();
            queues = new Queues.Builder(kind);
            reporting = new Reporting.Builder();
            rateQos = new RateQos.Builder();
        }

        public TestKind kind() {
            return kind;
        }

        // TestShape
        public Builder size(long v) { shape.size = v; return this; }
        public long size() { return shape.size; }
        public Builder sizeRequested(boolean v) { shape.sizeRequested = v; return this; }
        public boolean sizeRequested() { return shape.sizeRequested; }
        public Builder runAll(boolean v) { shape.runAll = v; return this; }
        public boolean runAll() { return shape.runAll; }
        public Builder iterations(long v) { shape.iterations = v; return this; }
        public long iterations() { return shape.iterations; }
        public Builder durationSeconds(int v) { shape.durationSeconds = v; return this; }
        public int durationSeconds() { return shape.durationSeconds; }
        public Builder durationMode(boolean v) { shape.durationMode = v; return this; }
        public boolean durationMode() { return shape.durationMode; }
        public Builder marginSeconds(int v) { shape.marginSeconds = v; return this; }
        public int marginSeconds() { return shape.marginSeconds; }
        public Builder runInfinitely(boolean v) { shape.runInfinitely = v; return this; }
        public boolean runInfinitely() { return shape.runInfinitely; }
        public Builder bidirectional(boolean v) { shape.bidirectional = v; return this; }
        public boolean bidirectional() { return shape.bidirectional; }
        public Builder numQps(int v) { shape.numQps = v; return this; }
        public int numQps() { return shape.numQps; }
        public Builder warmUp(boolean v) { shape.warmUp = v; return this; }
        public boolean warmUp() { return shape.warmUp; }

        // Peer
        public Builder host(String v) { peer.host = v; return this; }
        public String host() { return peer.host; }
        public Builder port(int v) { peer.port = v; return this; }
        public int port() { return peer.port; }
        public Builder rdmaCm(boolean v) { peer.rdmaCm = v; return this; }
        public boolean rdmaCm() { return peer.rdmaCm; }
        public Builder gidIndex(int v) { peer.gidIndex = v; return this; }
        public int gidIndex() { return peer.gidIndex; }
        public Builder ipv6(boolean v) { peer.ipv6 = v; return this; }
        public boolean ipv6() { return peer.ipv6; }
        public Builder sourceIp(String v) { peer.sourceIp = v; return this; }
        public String sourceIp() { return peer.sourceIp; }
        public Builder exchangeVersions(boolean v) { peer.exchangeVersions = v; return this; }
        public boolean exchangeVersions() { return peer.exchangeVersions; }

        // RdmaDevice
        public Builder device(String v) { rdmaDevice.name = v; return this; }
        public String device() { return rdmaDevice.name; }
        public Builder ibPort(int v) { rdmaDevice.ibPort = v; return this; }
        public int ibPort() { return rdmaDevice.ibPort; }
        public Builder requestedMtu(Mtu v) { rdmaDevice.requestedMtu = v; return this; }
        public Mtu requestedMtu() { return rdmaDevice.requestedMtu; }
        public Builder mrPerQp(boolean v) { rdmaDevice.mrPerQp = v; return this; }
        public boolean mrPerQp() { return rdmaDevice.mrPerQp; }
        public Builder dualPort(boolean v) { rdmaDevice.dualPort = v; return this; }
        public boolean dualPort() { return rdmaDevice.dualPort; }

        // Queues
        public Builder connection(ConnectionType v) { queues.connection = v; return this; }
        public ConnectionType connection() { return queues.connection; }
        public Builder txDepth(int v) { queues.txDepth = v; return this; }
        public int txDepth() { return queues.txDepth; }
        public Builder rxDepth(int v) { queues.rxDepth = v; return this; }
        public int rxDepth() { return queues.rxDepth; }
        public Builder outReads(int v) { queues.outReads = v; return this; }
        public int outReads() { return queues.outReads; }
        public Builder atomicType(AtomicType v) { queues.atomicType = v; return this; }
        public AtomicType atomicType() { return queues.atomicType; }
        public Builder inlineSize(int v) { queues.inlineSize = v; return this; }
        public int inlineSize() { return queues.inlineSize; }
        /** Sets {@code -u}; the options then count it as requested. */
        public Builder qpTimeout(int v) { queues.qpTimeout = v; queues.qpTimeoutRequested = true; return this; }
        public int qpTimeout() { return queues.qpTimeout; }
        public Builder postList(int v) { queues.postList = v; return this; }
        public int postList() { return queues.postList; }
        public Builder cqModeration(int v) { queues.cqModeration = v; return this; }
        public int cqModeration() { return queues.cqModeration; }
        public Builder cqModerationRequested(boolean v) { queues.cqModerationRequested = v; return this; }
        public boolean cqModerationRequested() { return queues.cqModerationRequested; }
        public Builder events(boolean v) { queues.events = v; return this; }
        public boolean events() { return queues.events; }
        public Builder eventVector(int v) { queues.eventVector = v; return this; }
        public int eventVector() { return queues.eventVector; }
        public Builder oldPostSend(boolean v) { queues.oldPostSend = v; return this; }
        public boolean oldPostSend() { return queues.oldPostSend; }
        public Builder srq(boolean v) { queues.srq = v; return this; }
        public boolean srq() { return queues.srq; }
        public Builder useOoo(boolean v) { queues.useOoo = v; return this; }
        public boolean useOoo() { return queues.useOoo; }

        // Reporting
        public Builder reportUnit(ReportUnit v) { reporting.reportUnit = v; return this; }
        public ReportUnit reportUnit() { return reporting.reportUnit; }
        public Builder reportCounters(List<String> v) { reporting.reportCounters = new ArrayList<>(v); return this; }
        public List<String> reportCounters() { return reporting.reportCounters; }
        public Builder noPeak(boolean v) { reporting.noPeak = v; return this; }
        public boolean noPeak() { return reporting.noPeak; }
        public Builder reportCycles(boolean v) { reporting.reportCycles = v; return this; }
        public boolean reportCycles() { return reporting.reportCycles; }
        public Builder histogram(boolean v) { reporting.histogram = v; return this; }
        public boolean histogram() { return reporting.histogram; }
        public Builder unsorted(boolean v) { reporting.unsorted = v; return this; }
        public boolean unsorted() { return reporting.unsorted; }
        public Builder limitBw(double v) { reporting.limitBw = v; return this; }
        public double limitBw() { return reporting.limitBw; }
        public Builder limitMsgRate(double v) { reporting.limitMsgRate = v; return this; }
        public double limitMsgRate() { return reporting.limitMsgRate; }
        public Builder cpuFreqWarningsOff(boolean v) { reporting.cpuFreqWarningsOff = v; return this; }
        public boolean cpuFreqWarningsOff() { return reporting.cpuFreqWarningsOff; }

        // RateQos
        public Builder rateLimit(RateLimit v) { rateQos.rateLimit = v; return this; }
        public RateLimit rateLimit() { return rateQos.rateLimit; }
        public Builder serviceLevel(int v) { rateQos.serviceLevel = v; return this; }
        public int serviceLevel() { return rateQos.serviceLevel; }
        public Builder tos(int v) { rateQos.tos = v; return this; }
        public int tos() { return rateQos.tos; }

        /** Adds a line perftest prints on stderr about an adjusted setting. */
        public Builder warning(String line) {
            warnings.add(line);
            return this;
        }

        public List<String> warnings() {
            return List.copyOf(warnings);
        }

        /** Adds a line perftest prints on stdout about an adjusted setting. */
        public Builder note(String line) {
            notes.add(line);
            return this;
        }

        public List<String> notes() {
            return List.copyOf(notes);
        }

        public PerftestOptions build() {
            return new PerftestOptions(this);
        }
    }
}
