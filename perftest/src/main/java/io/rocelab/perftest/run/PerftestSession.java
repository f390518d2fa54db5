package io.rocelab.perftest.run;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.BwResult;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.oob.Negotiated;
import io.rocelab.perftest.oob.OobChannel;
import io.rocelab.perftest.oob.OobLink;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.oob.OobTrace;
import io.rocelab.perftest.oob.PerftestOob;
import io.rocelab.perftest.oob.PerftestVersion;
import io.rocelab.perftest.oob.SystemData;
import io.rocelab.perftest.report.AddressReport;
import io.rocelab.perftest.report.BwMeasurement;
import io.rocelab.perftest.report.BwReport;
import io.rocelab.perftest.report.CounterReport;
import io.rocelab.perftest.report.LatReport;
import io.rocelab.perftest.report.PerftestFormats;
import io.rocelab.perftest.report.PerftestHeader;
import io.rocelab.perftest.report.TestInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One run of a perftest tool, minus the NIC: the out-of-band connection, the exchanges in the
 * order each of perftest's tools makes them, and everything the tool prints. The traffic itself is
 * the {@link TestEngine}'s.
 *
 * <p>The order of key exchanges differs between tools (write_lat exchanges four times and never
 * says "done"; send_bw adds a barrier before each size; read_lat's server leaves before the
 * traffic) and a peer that expects one more or one fewer exchange hangs, so each tool's sequence
 * is followed exactly as perftest 4.5-0.18 (version 6.06) makes it.
 *
 * <p>With {@code -R} there is no TCP: the engine connects an RC QP through rdma_cm and the same
 * exchanges run over it as SENDs (key records as perftest's binary struct), the data QPs are
 * connected by rdma_cm between two empty key exchanges, and the run ends with rdma_cm's
 * disconnects instead of "done".
 */
public final class PerftestSession {
    private final PerftestOptions options;
    private final TestEngine engine;
    private final PrintStream out;
    private final PrintStream err;
    private final Duration ioTimeout;
    private OobServer listener;
    private OobTrace trace = OobTrace.NONE;

    private PerftestOob oob;
    private List<KeyRecord> mine;
    private RunContext context;
    private PerftestOptions run;
    /** {@code -W}'s counters, or null without. */
    private CounterReport counters;
    private boolean bwLimitPassed;
    private boolean rateLimitPassed;

    /**
     * @param ioTimeout how long to wait for the peer in each exchange; the server waits for its
     *                  client without limit, as perftest does
     */
    public PerftestSession(PerftestOptions options, TestEngine engine, PrintStream out, PrintStream err,
                           Duration ioTimeout) {
        this.options = Objects.requireNonNull(options, "options");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        this.ioTimeout = Objects.requireNonNull(ioTimeout, "ioTimeout");
    }

    /**
     * Uses an already bound listener for the server side, so that a caller can learn its port
     * before the session blocks in accept (port 0 in tests).
     */
    public PerftestSession listener(OobServer server) {
        this.listener = server;
        return this;
    }

    /** Sees every out-of-band message of the session. */
    public PerftestSession trace(OobTrace t) {
        this.trace = Objects.requireNonNull(t, "trace");
        return this;
    }

    /**
     * Runs the session to the end, and closes the engine.
     *
     * @return the exit status: 0, or 1 when the run failed or a {@code -w}/{@code -y} limit was
     *         not met
     */
    public int run() throws Exception {
        try {
            runSession();
            out.flush();
            return limitStatus();
        } finally {
            engine.close();
        }
    }

    private void runSession() throws Exception {
        DeviceInfo device = engine.open(options);
        if (!options.reportCounters().isEmpty()) {
            // perftest opens them when it sets up the exchange (create_comm_struct), before any traffic
            counters = CounterReport.open(options.reportCounters(), engine::portCounter);
            if (counters == null) {
                throw new OptionException(" Unable to access performance counters");
            }
        }
        Mtu portMtu = portMtu(device);
        // the server says it waits once its listener exists: a client started on that line is not refused
        try (OobLink channel = options.rdmaCm() ? engine.connectRdmaCm(options, ioTimeout, this::waitingForClient)
                : open()) {
            channel.trace(trace);
            oob = new PerftestOob(channel);
            Negotiated negotiated = oob.setUp(PerftestVersion.rocelab(), SystemData.DEFAULT, portMtu,
                    options.exchangeVersions());
            run = options.forMtu(negotiated.mtu());
            run.notes().forEach(err::println);
            context = new RunContext(run, device, negotiated, outReads(device), gidIndex(device));
            mine = List.copyOf(engine.createQps(context));
            if (mine.size() != run.numQps()) {
                throw new IllegalStateException("the engine created " + mine.size() + " QPs, " + run.numQps()
                        + " were asked for");
            }
            if (options.rdmaCm()) {
                connectQpsThroughRdmaCm();
            }
            out.print(PerftestHeader.render(testInfo()));
            switch (run.kind()) {
                case WRITE_BW:
                case READ_BW:
                case ATOMIC_BW:
                    rdmaBandwidth();
                    break;
                case SEND_BW:
                    sendBandwidth();
                    break;
                case WRITE_LAT:
                    writeLatency();
                    break;
                case READ_LAT:
                case ATOMIC_LAT:
                    readLatency();
                    break;
                case SEND_LAT:
                    sendLatency();
                    break;
                default:
                    throw new AssertionError(run.kind());
            }
        }
        if (options.rdmaCm()) {
            engine.disconnectRdmaCm();
        }
    }

    /**
     * {@code -R} ({@code create_rdma_cm_connection}): a key exchange of empty records, the data
     * QPs' rdma_cm connections, another empty exchange; from then on the records carry the GID
     * index, and {@link TestEngine#connect} only takes the peer's keys.
     */
    private void connectQpsThroughRdmaCm() throws Exception {
        KeyRecord empty = new KeyRecord(0, 0, 0, 0, 0, 0, Gid.zero(), 0);
        oob.handshake(empty);
        engine.connectQpsRdmaCm();
        oob.handshake(empty);
        oob.gidIndex(Math.max(0, context.gidIndex()));
    }

    private Mtu portMtu(DeviceInfo device) {
        Mtu requested = options.requestedMtu();
        if (requested == null) {
            return device.activeMtu();
        }
        if (requested.bytes() > device.activeMtu().bytes()) {
            out.println("Requested mtu is higher than active mtu ");
            out.println("Changing to active mtu - " + device.activeMtu().ibvValue());
            return device.activeMtu();
        }
        return requested;
    }

    private int outReads(DeviceInfo device) {
        if (!options.kind().verb().usesOutstandingReads()) {
            return 1;
        }
        int requested = options.outReads();
        if (requested > device.maxOutstandingReads()) {
            out.println(PerftestFormats.RESULT_LINE);
            err.println(" Number of outstanding reads is above max = " + device.maxOutstandingReads());
            err.println(" Changing to that max value");
            return device.maxOutstandingReads();
        }
        return requested <= 0 ? device.maxOutstandingReads() : requested;
    }

    private int gidIndex(DeviceInfo device) {
        if (options.gidIndex() != -1) {
            return options.gidIndex();
        }
        return "Ethernet".equals(device.linkType()) ? device.defaultGidIndex() : -1;
    }

    private OobChannel open() throws IOException {
        if (options.isClient()) {
            return OobChannel.connect(options.host(), options.port(), ioTimeout);
        }
        OobServer server = listener != null ? listener
                : OobServer.bind(options.sourceIp() == null ? new InetSocketAddress(options.port())
                        : new InetSocketAddress(options.sourceIp(), options.port()));
        waitingForClient();
        return server.accept(Duration.ZERO, ioTimeout);
    }

    private void waitingForClient() {
        out.print(PerftestHeader.waitingForClient());
        out.flush();
    }

    private TestInfo testInfo() {
        PerftestOptions o = run;
        return TestInfo.builder()
                .verb(o.kind().verb())
                .testType(o.kind().type())
                .atomicType(o.atomicType())
                .bidirectional(o.bidirectional())
                .postList(o.postList())
                .events(o.events(), Math.max(0, o.eventVector()))
                .deviceName(context.device().name())
                .numQps(o.numQps())
                .transport(context.device().transport())
                .connection(o.connection())
                .srq(o.srq())
                .wrApi(!o.oldPostSend())
                .enhancedReorder(o.useOoo())
                .client(o.isClient())
                .txDepth(o.txDepth())
                .rxDepth(o.rxDepth())
                .cqModeration(o.cqModeration())
                .mtuBytes(context.mtu().bytes())
                .linkType(context.device().linkType())
                .gidIndex(context.gidIndex())
                // -O: port 2's QPs use the same index in port 2's table (both ports' tables are alike)
                .dualPort(o.dualPort())
                .gidIndex2(o.dualPort() ? context.gidIndex() : -1)
                .maxInline(o.inlineSize())
                .outstandingReads(context.outReads())
                .rdmaCmQps(o.rdmaCm())
                .rdmaCmExchange(o.rdmaCm())
                .tos(o.tos())
                .build();
    }

    // ---- the flows, one per family of perftest tools ----

    /** ib_write_bw, ib_read_bw, ib_atomic_bw. */
    private void rdmaBandwidth() throws Exception {
        List<KeyRecord> remote = exchangeAll();
        connect(remote);
        printLocal();
        exchangeAndPrintRemote();
        barrier();
        out.print(BwReport.header(run.reportUnit()));
        if (run.isServer() && !run.bidirectional()) {
            barrier();
            BwResult client = oob.exchangeBwReport(new BwResult(0, 0, 0, 0, 0));
            result(BwReport.line(client, run.reportUnit()));
            oob.close(mine.get(0));
            out.print(BwReport.footer());
            return;
        }
        BwResult last = null;
        if (run.runInfinitely()) {
            runInfinitely();
        } else {
            for (long size : run.sizes(context.mtu())) {
                if (run.bidirectional()) {
                    barrier();
                }
                BwResult r = BwReport.compute(engine.runBandwidth(size), run.reportUnit());
                if (run.bidirectional() && run.runAll()) {
                    barrier();
                }
                printBandwidth(r);
                last = r;
            }
        }
        out.print(BwReport.footer());
        if (run.isClient() && !run.bidirectional()) {
            barrier();
            oob.exchangeBwReport(last == null ? new BwResult(run.size(), 0, 0, 0, 0) : last);
        }
        oob.close(mine.get(0));
    }

    /** ib_send_bw: both sides run, the server measuring what it receives; no report exchange one-way. */
    private void sendBandwidth() throws Exception {
        List<KeyRecord> remote = exchangeAll();
        connect(remote);
        barrier();
        printLocal();
        exchangeAndPrintRemote();
        out.print(BwReport.header(run.reportUnit()));
        if (run.runInfinitely()) {
            barrier();
            runInfinitely();
        } else {
            for (long size : run.sizes(context.mtu())) {
                barrier();
                BwResult r = BwReport.compute(engine.runBandwidth(size), run.reportUnit());
                if (!run.bidirectional() || run.durationMode()) {
                    checkLimits(r);
                    result(BwReport.line(r, run.reportUnit()));
                } else {
                    printBandwidth(r);
                }
                if (run.runAll()) {
                    barrier();
                }
            }
        }
        out.print(BwReport.footer());
        oob.close(mine.get(0));
    }

    /** ib_write_lat: a ping-pong on both sides; four key exchanges and no "done". */
    private void writeLatency() throws Exception {
        barrier();
        List<KeyRecord> remote = exchangeAll();
        connect(remote);
        printLocal();
        exchangeAndPrintRemote();
        barrier();
        latencyTable();
        out.print(LatReport.footer());
    }

    /** ib_read_lat, ib_atomic_lat: only the client runs; the server says "done" and leaves. */
    private void readLatency() throws Exception {
        barrier();
        List<KeyRecord> remote = exchangeAll();
        connect(remote);
        printLocal();
        exchangeAndPrintRemote();
        barrier();
        if (run.isServer()) {
            oob.close(mine.get(0));
            out.print(LatReport.footer());
            return;
        }
        latencyTable();
        oob.close(mine.get(0));
        out.print(LatReport.footer());
    }

    /** ib_send_lat: a ping-pong on both sides, with a barrier before each size so receives are posted. */
    private void sendLatency() throws Exception {
        List<KeyRecord> remote = exchangeAll();
        connect(remote);
        barrier();
        printLocal();
        exchangeAndPrintRemote();
        out.print(run.durationMode() ? LatReport.durationHeader() : LatReport.header());
        for (long size : run.sizes(context.mtu())) {
            barrier();
            printLatency(size);
        }
        out.print(LatReport.footer());
        oob.close(mine.get(0));
    }

    private void latencyTable() throws Exception {
        out.print(run.durationMode() ? LatReport.durationHeader() : LatReport.header());
        for (long size : run.sizes(context.mtu())) {
            printLatency(size);
        }
    }

    private void printLatency(long size) throws Exception {
        if (run.durationMode()) {
            LatDuration d = engine.runLatencyForDuration(size);
            result(LatReport.durationLine(size, d.iterations(), run.kind().verb(), d.totalTicks(),
                    d.ticksPerMicro()));
        } else {
            result(LatReport.render(engine.runLatency(size), run.reportCycles(), run.unsorted(), run.histogram()));
        }
        out.flush();
    }

    private void printBandwidth(BwResult r) throws IOException {
        if (run.bidirectional()) {
            BwResult remote = oob.exchangeBwReport(r);
            checkLimits(r.plus(remote));
            result(BwReport.line(r, remote, run.reportUnit()));
        } else {
            checkLimits(r);
            result(BwReport.line(r, run.reportUnit()));
        }
        out.flush();
    }

    private void runInfinitely() throws Exception {
        engine.runInfinitely(run.size(), m -> {
            result(BwReport.line(BwReport.compute(m, run.reportUnit()), run.reportUnit()));
            out.flush();
        });
    }

    /**
     * Prints a result line, and after it the change of {@code -W}'s counters, as perftest's
     * {@code print_full_bw_report} and {@code print_report_lat} do after every line they print.
     */
    private void result(String line) {
        out.print(line);
        if (counters != null) {
            out.print(counters.render());
        }
    }

    /**
     * Records whether a printed result meets {@code -w} and {@code -y}. As in perftest, a run
     * passes a limit when any of its printed results does.
     */
    private void checkLimits(BwResult r) {
        bwLimitPassed |= run.limitBw() <= 0 || r.average() >= run.limitBw();
        rateLimitPassed |= run.limitMsgRate() <= 0 || r.messageRate() >= run.limitMsgRate();
    }

    /** The exit status after the run: 1 when the sending side missed a limit. */
    private int limitStatus() {
        if (run == null || run.isServer() && !run.bidirectional()) {
            return 0;
        }
        if (run.limitBw() > 0 && !bwLimitPassed) {
            err.println("Error: BW result is below bw limit");
            return 1;
        }
        if (run.limitMsgRate() > 0 && !rateLimitPassed) {
            err.println("Error: Msg rate  is below msg_rate limit");
            return 1;
        }
        return 0;
    }

    // ---- key exchanges ----

    /** One key exchange per QP; the peer's records are what the QPs connect to. */
    private List<KeyRecord> exchangeAll() throws IOException {
        List<KeyRecord> remote = new ArrayList<>(mine.size());
        for (KeyRecord k : mine) {
            remote.add(oob.handshake(k));
        }
        return remote;
    }

    /**
     * Connects the QPs to the peer's records. Without rdma_cm perftest first checks that both
     * sides' GIDs are of one IP version ({@code ctx_check_gid_compatibility}: IPv4-mapped or not),
     * and stops with its message when they are not (one side chose an IPv6 GID, the other an IPv4 one).
     */
    private void connect(List<KeyRecord> remote) throws Exception {
        if (!run.rdmaCm() && !remote.isEmpty() && mine.get(0).gid() != null && remote.get(0).gid() != null
                && mine.get(0).gid().isIpv4Mapped() != remote.get(0).gid().isIpv4Mapped()) {
            throw new io.rocelab.perftest.cli.OptionException(" Found Incompatibility issue with GID types."
                    + " Please Try to use a different IP version.");
        }
        engine.connect(remote);
    }

    /** A key exchange used only to wait for the peer. */
    private void barrier() throws IOException {
        oob.handshake(mine.get(0));
    }

    private void printLocal() {
        boolean gid = context.gidIndex() > -1;
        Verb verb = addressVerb();
        for (KeyRecord k : mine) {
            out.print(AddressReport.render(AddressReport.Side.LOCAL, k, verb, gid));
        }
    }

    private void exchangeAndPrintRemote() throws IOException {
        boolean gid = context.gidIndex() > -1;
        Verb verb = addressVerb();
        for (KeyRecord k : mine) {
            out.print(AddressReport.render(AddressReport.Side.REMOTE, oob.handshake(k), verb, gid));
        }
    }

    /**
     * The verb the address lines are printed for: with {@code -R} perftest prints them with its
     * exchange's settings ({@code create_comm_struct} makes that verb SEND), so without the RKey,
     * VAddr and out-reads fields.
     */
    private Verb addressVerb() {
        return run.rdmaCm() ? Verb.SEND : run.kind().verb();
    }

    /** The tool this session runs. */
    public TestKind kind() {
        return options.kind();
    }
}
