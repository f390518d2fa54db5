package io.rocelab.perftest.cli;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.RateLimit;
import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.oob.OobServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The settings of one perftest run after perftest's defaults, checks and adjustments
 * ({@code parser} and {@code force_dependecies}): what the run uses, not what the user typed.
 * {@link PerftestCommand} produces it from a command line; tests and embedders can build one
 * directly with {@link #builder(TestKind)}, which fills in the tool's defaults but checks nothing.
 */
public final class PerftestOptions {
    /** perftest's {@code MAX_SIZE}: the largest message, and the last size of {@code -a}. */
    public static final long MAX_SIZE = 8_388_608;
    private final TestKind kind;
    private final String host;
    private final int port;
    private final String device;
    private final int ibPort;
    private final long size;
    private final boolean sizeRequested;
    private final boolean runAll;
    private final long iterations;
    private final int durationSeconds;
    private final boolean durationMode;
    private final int marginSeconds;
    private final boolean runInfinitely;
    private final int numQps;
    private final Mtu requestedMtu;
    private final boolean bidirectional;
    private final int gidIndex;
    private final ConnectionType connection;
    private final int txDepth;
    private final int rxDepth;
    private final boolean rdmaCm;
    private final int outReads;
    private final AtomicType atomicType;
    private final int inlineSize;
    private final ReportUnit reportUnit;
    private final int qpTimeout;
    private final boolean qpTimeoutRequested;
    private final int serviceLevel;
    private final int postList;
    private final int cqModeration;
    private final boolean cqModerationRequested;
    private final boolean events;
    private final int eventVector;
    private final int tos;
    private final double limitBw;
    private final double limitMsgRate;
    private final List<String> reportCounters;
    private final boolean noPeak;
    private final boolean reportCycles;
    private final boolean histogram;
    private final boolean unsorted;
    private final boolean cpuFreqWarningsOff;
    private final boolean exchangeVersions;
    private final boolean ipv6;
    private final boolean oldPostSend;
    private final boolean srq;
    private final String sourceIp;
    private final boolean warmUp;
    private final boolean mrPerQp;
    private final RateLimit rateLimit;
    private final List<String> notes;
    private final List<String> warnings;

    private PerftestOptions(Builder b) {
        this.kind = b.kind;
        this.host = b.host;
        this.port = b.port;
        this.device = b.device;
        this.ibPort = b.ibPort;
        this.size = b.size;
        this.sizeRequested = b.sizeRequested;
        this.runAll = b.runAll;
        this.iterations = b.iterations;
        this.durationSeconds = b.durationSeconds;
        this.durationMode = b.durationMode;
        this.marginSeconds = b.marginSeconds;
        this.runInfinitely = b.runInfinitely;
        this.numQps = b.numQps;
        this.requestedMtu = b.requestedMtu;
        this.bidirectional = b.bidirectional;
        this.gidIndex = b.gidIndex;
        this.connection = b.connection;
        this.txDepth = b.txDepth;
        this.rxDepth = b.rxDepth;
        this.rdmaCm = b.rdmaCm;
        this.outReads = b.outReads;
        this.atomicType = b.atomicType;
        this.inlineSize = b.inlineSize;
        this.reportUnit = b.reportUnit;
        this.qpTimeout = b.qpTimeout;
        this.qpTimeoutRequested = b.qpTimeoutRequested;
        this.serviceLevel = b.serviceLevel;
        this.postList = b.postList;
        this.cqModeration = b.cqModeration;
        this.cqModerationRequested = b.cqModerationRequested;
        this.events = b.events;
        this.eventVector = b.eventVector;
        this.tos = b.tos;
        this.limitBw = b.limitBw;
        this.limitMsgRate = b.limitMsgRate;
        this.reportCounters = List.copyOf(b.reportCounters);
        this.noPeak = b.noPeak;
        this.reportCycles = b.reportCycles;
        this.histogram = b.histogram;
        this.unsorted = b.unsorted;
        this.cpuFreqWarningsOff = b.cpuFreqWarningsOff;
        this.exchangeVersions = b.exchangeVersions;
        this.ipv6 = b.ipv6;
        this.oldPostSend = b.oldPostSend;
        this.srq = b.srq;
        this.sourceIp = b.sourceIp;
        this.warmUp = b.warmUp;
        this.mrPerQp = b.mrPerQp;
        this.rateLimit = b.rateLimit;
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
        b.host = host;
        b.port = port;
        b.device = device;
        b.ibPort = ibPort;
        b.size = size;
        b.sizeRequested = sizeRequested;
        b.runAll = runAll;
        b.iterations = iterations;
        b.durationSeconds = durationSeconds;
        b.durationMode = durationMode;
        b.marginSeconds = marginSeconds;
        b.runInfinitely = runInfinitely;
        b.numQps = numQps;
        b.requestedMtu = requestedMtu;
        b.bidirectional = bidirectional;
        b.gidIndex = gidIndex;
        b.connection = connection;
        b.txDepth = txDepth;
        b.rxDepth = rxDepth;
        b.rdmaCm = rdmaCm;
        b.outReads = outReads;
        b.atomicType = atomicType;
        b.inlineSize = inlineSize;
        b.reportUnit = reportUnit;
        b.qpTimeout = qpTimeout;
        b.qpTimeoutRequested = qpTimeoutRequested;
        b.serviceLevel = serviceLevel;
        b.postList = postList;
        b.cqModeration = cqModeration;
        b.cqModerationRequested = cqModerationRequested;
        b.events = events;
        b.eventVector = eventVector;
        b.tos = tos;
        b.limitBw = limitBw;
        b.limitMsgRate = limitMsgRate;
        b.reportCounters = new ArrayList<>(reportCounters);
        b.noPeak = noPeak;
        b.reportCycles = reportCycles;
        b.histogram = histogram;
        b.unsorted = unsorted;
        b.cpuFreqWarningsOff = cpuFreqWarningsOff;
        b.exchangeVersions = exchangeVersions;
        b.ipv6 = ipv6;
        b.oldPostSend = oldPostSend;
        b.srq = srq;
        b.sourceIp = sourceIp;
        b.warmUp = warmUp;
        b.mrPerQp = mrPerQp;
        b.rateLimit = rateLimit;
        b.notes = new ArrayList<>(notes);
        b.warnings = new ArrayList<>(warnings);
        return b;
    }

    /** True on the side that waits for a connection (no host given). */
    public boolean isServer() {
        return host == null;
    }

    /** True on the side that connects and, in one-way tests, sends. */
    public boolean isClient() {
        return host != null;
    }

    /**
     * The message sizes to run: with {@code -a} every power of two from 2 bytes to 8 MiB — to the
     * MTU on UD, whose messages must fit one packet — else the one size.
     */
    public List<Long> sizes(Mtu mtu) {
        if (!runAll) {
            return List.of(size);
        }
        long largest = connection == ConnectionType.UD ? mtu.bytes() : MAX_SIZE;
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

    /** The server to connect to; null on the server side. */
    public String host() {
        return host;
    }

    /** TCP port of the out-of-band exchange ({@code -p}). */
    public int port() {
        return port;
    }

    /** RDMA device name ({@code -d}); null means the first device found. */
    public String device() {
        return device;
    }

    /** Port of the device ({@code -i}). */
    public int ibPort() {
        return ibPort;
    }

    /** Message size in bytes; with {@code -a} the largest size, 8 MiB, for buffer sizing. */
    public long size() {
        return size;
    }

    /** True when {@code -s} was given. */
    public boolean sizeRequested() {
        return sizeRequested;
    }

    /** {@code -a}: run every power-of-two size from 2 bytes to 8 MiB. */
    public boolean runAll() {
        return runAll;
    }

    /** Iterations per size; 0 in {@code -D} and {@code --run_infinitely} runs. */
    public long iterations() {
        return iterations;
    }

    /** {@code -D}: seconds to run (also the reporting period of {@code --run_infinitely}). */
    public int durationSeconds() {
        return durationSeconds;
    }

    /** True for a {@code -D} or {@code --run_infinitely} run. */
    public boolean durationMode() {
        return durationMode;
    }

    /** {@code -f}: seconds excluded at each end of a {@code -D} run. */
    public int marginSeconds() {
        return marginSeconds;
    }

    /** {@code --run_infinitely}. */
    public boolean runInfinitely() {
        return runInfinitely;
    }

    /** {@code -q}: QPs used. */
    public int numQps() {
        return numQps;
    }

    /** {@code -m}; null means the port's active MTU. */
    public Mtu requestedMtu() {
        return requestedMtu;
    }

    /** {@code -b}. */
    public boolean bidirectional() {
        return bidirectional;
    }

    /** {@code -x}; -1 means the default (0 on Ethernet). */
    public int gidIndex() {
        return gidIndex;
    }

    /** {@code -c}. */
    public ConnectionType connection() {
        return connection;
    }

    /** Send queue depth after perftest's adjustments ({@code -t}). */
    public int txDepth() {
        return txDepth;
    }

    /** Receive queue depth after perftest's adjustments ({@code -r}). */
    public int rxDepth() {
        return rxDepth;
    }

    /** {@code -R}: connect the QPs with rdma_cm instead of the TCP exchange. */
    public boolean rdmaCm() {
        return rdmaCm;
    }

    /** {@code -o}: outstanding reads/atomics; 0 means the device maximum (1 for send and write). */
    public int outReads() {
        return outReads;
    }

    /** {@code -A}. */
    public AtomicType atomicType() {
        return atomicType;
    }

    /** Largest message sent inline ({@code -I}, or perftest's default for the test). */
    public int inlineSize() {
        return inlineSize;
    }

    /** {@code --report_gbits} selects Gb/sec. */
    public ReportUnit reportUnit() {
        return reportUnit;
    }

    /** {@code -u}: the QP's local ACK timeout exponent (4.096 us * 2^n). */
    public int qpTimeout() {
        return qpTimeout;
    }

    /** Whether {@code -u} was given, rather than perftest's default of 14 taken. */
    public boolean qpTimeoutRequested() {
        return qpTimeoutRequested;
    }

    /** {@code -S}. */
    public int serviceLevel() {
        return serviceLevel;
    }

    /** {@code -l}: work requests per post call. */
    public int postList() {
        return postList;
    }

    /** {@code -Q} after adjustments: one signalled completion per this many sends. */
    public int cqModeration() {
        return cqModeration;
    }

    /** True when {@code -Q} was given. */
    public boolean cqModerationRequested() {
        return cqModerationRequested;
    }

    /** {@code -e}: sleep on completion events instead of polling. */
    public boolean events() {
        return events;
    }

    /** {@code -X}: completion vector for events; -1 when not given. */
    public int eventVector() {
        return eventVector;
    }

    /** {@code -T}: type of service of rdma_cm QPs; -1 when not given. */
    public int tos() {
        return tos;
    }

    /** {@code -w}: fail the run if the average bandwidth is below this; 0 = no limit. */
    public double limitBw() {
        return limitBw;
    }

    /** {@code -y}: fail the run if the message rate is below this; 0 = no limit. */
    public double limitMsgRate() {
        return limitMsgRate;
    }

    /** {@code -W}: device counters to report the change of. */
    public List<String> reportCounters() {
        return reportCounters;
    }

    /** True when no peak bandwidth is computed ({@code -N} or implied). */
    public boolean noPeak() {
        return noPeak;
    }

    /** {@code -C}: latency in clock ticks instead of microseconds. */
    public boolean reportCycles() {
        return reportCycles;
    }

    /** {@code -H}: print every sorted latency sample. */
    public boolean histogram() {
        return histogram;
    }

    /** {@code -U}: print every latency sample in order. */
    public boolean unsorted() {
        return unsorted;
    }

    /** {@code -F}. */
    public boolean cpuFreqWarningsOff() {
        return cpuFreqWarningsOff;
    }

    /** False with {@code --dont_xchg_versions}. */
    public boolean exchangeVersions() {
        return exchangeVersions;
    }

    /** {@code --ipv6}: prefer an IPv6 GID. */
    public boolean ipv6() {
        return ipv6;
    }

    /** {@code --use_old_post_send}. */
    public boolean oldPostSend() {
        return oldPostSend;
    }

    /** {@code --use-srq}. */
    public boolean srq() {
        return srq;
    }

    /** {@code --source_ip}: local address of the out-of-band connection. */
    public String sourceIp() {
        return sourceIp;
    }

    /** {@code --perform_warm_up}. */
    public boolean warmUp() {
        return warmUp;
    }

    /** {@code --mr_per_qp}. */
    public boolean mrPerQp() {
        return mrPerQp;
    }

    /**
     * {@code --rate_limit} and its companions: who limits the rate, to what, in bursts of how
     * many messages; null when the rate is not limited.
     */
    public RateLimit rateLimit() {
        return rateLimit;
    }

    /** Lines perftest prints about settings it adjusted, in order, its rules included. */
    public List<String> notes() {
        return notes;
    }

    /** Lines perftest prints on stderr about settings it adjusted (" Setting burst size to tx depth = 128"). */
    public List<String> warnings() {
        return warnings;
    }

    /** Collects settings; every field starts at the tool's perftest default. */
    public static final class Builder {
        private final TestKind kind;
        private String host = null;
        private int port = OobServer.DEFAULT_PORT;
        private String device = null;
        private int ibPort = 1;
        private long size = 0;
        private boolean sizeRequested = false;
        private boolean runAll = false;
        private long iterations = 0;
        private int durationSeconds = 5;
        private boolean durationMode = false;
        private int marginSeconds = -1;
        private boolean runInfinitely = false;
        private int numQps = 1;
        private Mtu requestedMtu = null;
        private boolean bidirectional = false;
        private int gidIndex = -1;
        private ConnectionType connection = ConnectionType.RC;
        private int txDepth = 0;
        private int rxDepth = 0;
        private boolean rdmaCm = false;
        private int outReads = 0;
        private AtomicType atomicType = AtomicType.FETCH_AND_ADD;
        private int inlineSize = 0;
        private ReportUnit reportUnit = ReportUnit.MB_PER_SEC;
        private int qpTimeout = 14;
        private boolean qpTimeoutRequested = false;
        private int serviceLevel = 0;
        private int postList = 1;
        private int cqModeration = 100;
        private boolean cqModerationRequested = false;
        private boolean events = false;
        private int eventVector = -1;
        private int tos = -1;
        private double limitBw = 0;
        private double limitMsgRate = 0;
        private List<String> reportCounters = new ArrayList<>();
        private boolean noPeak = false;
        private boolean reportCycles = false;
        private boolean histogram = false;
        private boolean unsorted = false;
        private boolean cpuFreqWarningsOff = false;
        private boolean exchangeVersions = true;
        private boolean ipv6 = false;
        private boolean oldPostSend = false;
        private boolean srq = false;
        private String sourceIp = null;
        private boolean warmUp = false;
        private boolean mrPerQp = false;
        private RateLimit rateLimit = null;
        private List<String> notes = new ArrayList<>();
        private List<String> warnings = new ArrayList<>();

        private Builder(TestKind kind) {
            this.kind = Objects.requireNonNull(kind, "kind");
            size = kind.defaultSize();
            iterations = kind.defaultIterations();
            txDepth = kind.defaultTxDepth();
            rxDepth = kind.defaultRxDepth();
            cqModeration = TestKind.DEFAULT_CQ_MOD;
            outReads = kind.verb().usesOutstandingReads() ? 0 : 1;
        }

        public TestKind kind() {
            return kind;
        }

        public Builder host(String v) {
            this.host = v;
            return this;
        }

        public String host() {
            return host;
        }

        public Builder port(int v) {
            this.port = v;
            return this;
        }

        public int port() {
            return port;
        }

        public Builder device(String v) {
            this.device = v;
            return this;
        }

        public String device() {
            return device;
        }

        public Builder ibPort(int v) {
            this.ibPort = v;
            return this;
        }

        public int ibPort() {
            return ibPort;
        }

        public Builder size(long v) {
            this.size = v;
            return this;
        }

        public long size() {
            return size;
        }

        public Builder sizeRequested(boolean v) {
            this.sizeRequested = v;
            return this;
        }

        public boolean sizeRequested() {
            return sizeRequested;
        }

        public Builder runAll(boolean v) {
            this.runAll = v;
            return this;
        }

        public boolean runAll() {
            return runAll;
        }

        public Builder iterations(long v) {
            this.iterations = v;
            return this;
        }

        public long iterations() {
            return iterations;
        }

        public Builder durationSeconds(int v) {
            this.durationSeconds = v;
            return this;
        }

        public int durationSeconds() {
            return durationSeconds;
        }

        public Builder durationMode(boolean v) {
            this.durationMode = v;
            return this;
        }

        public boolean durationMode() {
            return durationMode;
        }

        public Builder marginSeconds(int v) {
            this.marginSeconds = v;
            return this;
        }

        public int marginSeconds() {
            return marginSeconds;
        }

        public Builder runInfinitely(boolean v) {
            this.runInfinitely = v;
            return this;
        }

        public boolean runInfinitely() {
            return runInfinitely;
        }

        public Builder numQps(int v) {
            this.numQps = v;
            return this;
        }

        public int numQps() {
            return numQps;
        }

        public Builder requestedMtu(Mtu v) {
            this.requestedMtu = v;
            return this;
        }

        public Mtu requestedMtu() {
            return requestedMtu;
        }

        public Builder bidirectional(boolean v) {
            this.bidirectional = v;
            return this;
        }

        public boolean bidirectional() {
            return bidirectional;
        }

        public Builder gidIndex(int v) {
            this.gidIndex = v;
            return this;
        }

        public int gidIndex() {
            return gidIndex;
        }

        public Builder connection(ConnectionType v) {
            this.connection = v;
            return this;
        }

        public ConnectionType connection() {
            return connection;
        }

        public Builder txDepth(int v) {
            this.txDepth = v;
            return this;
        }

        public int txDepth() {
            return txDepth;
        }

        public Builder rxDepth(int v) {
            this.rxDepth = v;
            return this;
        }

        public int rxDepth() {
            return rxDepth;
        }

        public Builder rdmaCm(boolean v) {
            this.rdmaCm = v;
            return this;
        }

        public boolean rdmaCm() {
            return rdmaCm;
        }

        public Builder outReads(int v) {
            this.outReads = v;
            return this;
        }

        public int outReads() {
            return outReads;
        }

        public Builder atomicType(AtomicType v) {
            this.atomicType = v;
            return this;
        }

        public AtomicType atomicType() {
            return atomicType;
        }

        public Builder inlineSize(int v) {
            this.inlineSize = v;
            return this;
        }

        public int inlineSize() {
            return inlineSize;
        }

        public Builder reportUnit(ReportUnit v) {
            this.reportUnit = v;
            return this;
        }

        public ReportUnit reportUnit() {
            return reportUnit;
        }

        /** Sets {@code -u}; the options then count it as requested. */
        public Builder qpTimeout(int v) {
            this.qpTimeout = v;
            this.qpTimeoutRequested = true;
            return this;
        }

        public int qpTimeout() {
            return qpTimeout;
        }

        public Builder serviceLevel(int v) {
            this.serviceLevel = v;
            return this;
        }

        public int serviceLevel() {
            return serviceLevel;
        }

        public Builder postList(int v) {
            this.postList = v;
            return this;
        }

        public int postList() {
            return postList;
        }

        public Builder cqModeration(int v) {
            this.cqModeration = v;
            return this;
        }

        public int cqModeration() {
            return cqModeration;
        }

        public Builder cqModerationRequested(boolean v) {
            this.cqModerationRequested = v;
            return this;
        }

        public boolean cqModerationRequested() {
            return cqModerationRequested;
        }

        public Builder events(boolean v) {
            this.events = v;
            return this;
        }

        public boolean events() {
            return events;
        }

        public Builder eventVector(int v) {
            this.eventVector = v;
            return this;
        }

        public int eventVector() {
            return eventVector;
        }

        public Builder tos(int v) {
            this.tos = v;
            return this;
        }

        public int tos() {
            return tos;
        }

        public Builder limitBw(double v) {
            this.limitBw = v;
            return this;
        }

        public double limitBw() {
            return limitBw;
        }

        public Builder limitMsgRate(double v) {
            this.limitMsgRate = v;
            return this;
        }

        public double limitMsgRate() {
            return limitMsgRate;
        }

        public Builder reportCounters(List<String> v) {
            this.reportCounters = new ArrayList<>(v);
            return this;
        }

        public List<String> reportCounters() {
            return reportCounters;
        }

        public Builder noPeak(boolean v) {
            this.noPeak = v;
            return this;
        }

        public boolean noPeak() {
            return noPeak;
        }

        public Builder reportCycles(boolean v) {
            this.reportCycles = v;
            return this;
        }

        public boolean reportCycles() {
            return reportCycles;
        }

        public Builder histogram(boolean v) {
            this.histogram = v;
            return this;
        }

        public boolean histogram() {
            return histogram;
        }

        public Builder unsorted(boolean v) {
            this.unsorted = v;
            return this;
        }

        public boolean unsorted() {
            return unsorted;
        }

        public Builder cpuFreqWarningsOff(boolean v) {
            this.cpuFreqWarningsOff = v;
            return this;
        }

        public boolean cpuFreqWarningsOff() {
            return cpuFreqWarningsOff;
        }

        public Builder exchangeVersions(boolean v) {
            this.exchangeVersions = v;
            return this;
        }

        public boolean exchangeVersions() {
            return exchangeVersions;
        }

        public Builder ipv6(boolean v) {
            this.ipv6 = v;
            return this;
        }

        public boolean ipv6() {
            return ipv6;
        }

        public Builder oldPostSend(boolean v) {
            this.oldPostSend = v;
            return this;
        }

        public boolean oldPostSend() {
            return oldPostSend;
        }

        public Builder srq(boolean v) {
            this.srq = v;
            return this;
        }

        public boolean srq() {
            return srq;
        }

        public Builder sourceIp(String v) {
            this.sourceIp = v;
            return this;
        }

        public String sourceIp() {
            return sourceIp;
        }

        public Builder warmUp(boolean v) {
            this.warmUp = v;
            return this;
        }

        public boolean warmUp() {
            return warmUp;
        }

        public Builder mrPerQp(boolean v) {
            this.mrPerQp = v;
            return this;
        }

        public boolean mrPerQp() {
            return mrPerQp;
        }

        public Builder rateLimit(RateLimit v) {
            this.rateLimit = v;
            return this;
        }

        public RateLimit rateLimit() {
            return rateLimit;
        }

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
