package io.rocelab.perftest.cli;

import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.ReportUnit;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.Verb;
import io.rocelab.perftest.report.PerftestFormats;
import java.util.ArrayList;
import java.util.List;

/**
 * perftest's command-line rules: each flag's own check (perftest's {@code parser}), then the
 * checks and adjustments that involve several flags ({@code force_dependecies}). Messages are
 * perftest's where perftest has one, so that users and scripts recognise them. Where perftest
 * silently ignores a flag ({@code -s} with {@code -a}, {@code -n} with {@code -D}) or accepts
 * something the rocelab NIC cannot do (a second port, GPU memory), rocelab refuses with a line
 * that says why.
 */
final class OptionsValidator {

    private OptionsValidator() {
    }

    static PerftestOptions validate(PerftestCommand c) {
        TestKind kind = c.kind;
        Verb verb = kind.verb();
        PerftestOptions.Builder b = PerftestOptions.builder(kind);

        if (!c.unmatched.isEmpty()) {
            throw new OptionException(" Invalid Command or flag: " + c.unmatched.get(0)
                    + ". Please check command line and run again.");
        }
        if (c.device.useCuda != null || c.device.useCudaBusId != null || c.device.useRocm != null) {
            throw new OptionException(" GPU memory (--use_cuda/--use_rocm) is not supported:"
                    + " rocelab's NIC reaches host memory only");
        }
        if (c.hosts.size() > 1) {
            throw new OptionException(" Invalid Command line. Please check command rerun ");
        }
        b.host(c.hosts.isEmpty() ? null : c.hosts.get(0));

        if (c.peer.port != null) {
            b.port((int) range(c.peer.port, "Port", 1, 65535));
        }
        if (c.device.ibDev != null) {
            b.device(c.device.ibDev);
        }
        if (c.device.ibPort != null) {
            long p = integer(c.device.ibPort, "IB Port");
            if (p < 1) {
                throw new OptionException("IB Port can't be less than 1");
            }
            b.ibPort((int) range(c.device.ibPort, "IB Port", 1, 255));
        }
        if (c.device.mtu != null) {
            long m = integer(c.device.mtu, "MTU");
            Mtu mtu = Mtu.ofBytes(m);
            if (mtu == null) {
                throw new OptionException(" Invalid MTU - " + m + " . Please choose mtu from {256,512,1024,2048,4096}");
            }
            b.requestedMtu(mtu);
        }
        if (c.shape.iters != null) {
            b.iterations(range(c.shape.iters, "Iteration num", TestShape.MIN_ITERATIONS, Integer.MAX_VALUE));
        }
        if (c.queues.txDepth != null) {
            b.txDepth((int) range(c.queues.txDepth, "Tx depth", 1, Queues.MAX_TX_DEPTH));
        }
        if (c.rate.tos != null) {
            b.tos((int) range(c.rate.tos, "TOS", 0, 255));
        }
        if (c.queues.qpTimeout != null) {
            b.qpTimeout((int) range(c.queues.qpTimeout, "QP Timeout", 0, Queues.MAX_QP_TIMEOUT));
        }
        if (c.rate.sl != null) {
            long sl = integer(c.rate.sl, "Service Level");
            if (sl < 0 || sl > RateQos.MAX_SL) {
                throw new OptionException(" Only " + RateQos.MAX_SL + " Service levels");
            }
            b.serviceLevel((int) sl);
        }
        if (c.peer.gidIndex != null) {
            b.gidIndex((int) range(c.peer.gidIndex, "Gid index", 0, Peer.MAX_GID_INDEX));
        }
        if (c.queues.connection != null) {
            b.connection(Queues.parseConnection(c.queues.connection, verb));
        }
        if (c.shape.qp != null) {
            if (!kind.isBandwidth()) {
                throw new OptionException(" Multiple QPs only available on bw tests");
            }
            b.numQps((int) range(c.shape.qp, "num of Qps", 1, TestShape.MAX_QPS));
        }
        if (c.queues.inlineSize != null) {
            int inline = (int) range(c.queues.inlineSize, "Max inline", 0, Queues.MAX_INLINE);
            if (verb.usesOutstandingReads()) {
                throw new OptionException(" Inline feature not available on READ/Atomic verbs");
            }
            b.inlineSize(inline);
        }
        if (c.queues.outs != null) {
            long outs = integer(c.queues.outs, "Outstanding Reads");
            if (!verb.usesOutstandingReads()) {
                throw new OptionException(" Setting Outstanding reads only available on READ verb");
            }
            b.outReads((int) Math.max(0, Math.min(outs, 0xffff)));
        }
        if (c.queues.rxDepth != null) {
            int rx = (int) range(c.queues.rxDepth, " Rx depth", 1, Queues.MAX_RX_DEPTH);
            if (verb != Verb.SEND && rx > TestKind.DEFAULT_RX_DEPTH_RDMA) {
                throw new OptionException(" On RDMA verbs rx depth can be only 1");
            }
            b.rxDepth(rx);
        }
        if (c.queues.cqMod != null) {
            b.cqModeration((int) range(c.queues.cqMod, "CQ moderation", 1, Queues.MAX_CQ_MOD));
            b.cqModerationRequested(true);
        }
        if (c.queues.atomicType != null) {
            if (verb != Verb.ATOMIC) {
                throw new OptionException(" You are not running the atomic_lat/bw test! To change the atomic action"
                        + " type, you must run one of the atomic tests");
            }
            b.atomicType(Queues.parseAtomicType(c.queues.atomicType));
        }
        if (c.queues.postList != null) {
            long pl = integer(c.queues.postList, "Send Post List size");
            if (pl < 1) {
                throw new OptionException(" Send Post List size must be positive");
            }
            b.postList((int) Math.min(pl, Integer.MAX_VALUE));
        }
        if (c.shape.duration != null) {
            long d = integer(c.shape.duration, "Duration period");
            if (d <= 0) {
                throw new OptionException(" Duration period must be positive");
            }
            b.durationSeconds((int) Math.min(d, Integer.MAX_VALUE));
            b.durationMode(true);
        }
        if (c.shape.margin != null) {
            long m = integer(c.shape.margin, "Margin");
            if (m < 0) {
                throw new OptionException(" Margin must be non-negative");
            }
            b.marginSeconds((int) Math.min(m, Integer.MAX_VALUE));
        }
        if (c.device.dualPort) {
            // perftest's -O (parser and force_dependecies): ports 1 and 2, twice the QPs, the first
            // half on port 1 and the second on port 2; BW tests only, and not over rdma_cm
            b.ibPort(1).dualPort(true).numQps(b.numQps() * 2);
            if (!kind.isBandwidth()) {
                throw new OptionException(" Dual-port mode only supports BW tests.");
            }
            if (c.peer.rdmaCm) {
                throw new OptionException(" Perftest still doesn't support Dual Port with rdma_cm");
            }
        }
        if (c.shape.all) {
            b.runAll(true);
        }
        if (c.report.cpuFreq) {
            b.cpuFreqWarningsOff(true);
        }
        if (c.peer.rdmaCm) {
            b.rdmaCm(true);
        }
        if (c.shape.size != null) {
            b.size(TestShape.parseSize(c.shape.size));
            b.sizeRequested(true);
        }
        if (c.queues.events) {
            if (verb == Verb.WRITE) {
                throw new OptionException(" Events feature not available on WRITE verb");
            }
            b.events(true);
        }
        if (c.queues.vector != null) {
            if (verb == Verb.WRITE) {
                throw new OptionException(" Events feature not available on WRITE verb");
            }
            b.eventVector((int) range(c.queues.vector, "EQN", 0, Queues.MAX_EQ_NUM));
        }
        if (c.shape.bidirectional) {
            if (kind.isLatency()) {
                throw new OptionException(" Bidirectional is only available in BW test");
            }
            b.bidirectional(true);
        }
        if (c.report.noPeak) {
            if (kind.isLatency()) {
                throw new OptionException(" NoPeak only valid for BW tests");
            }
            b.noPeak(true);
        }
        if (c.report.reportCycles || c.report.histogram || c.report.unsorted) {
            if (!kind.isLatency()) {
                throw new OptionException(" Available only on Latency tests");
            }
            b.reportCycles(c.report.reportCycles).histogram(c.report.histogram).unsorted(c.report.unsorted);
        }
        if (c.report.limitBw != null) {
            Double v = CNumbers.parseDouble(c.report.limitBw);
            if (v == null || v < 0) {
                throw new OptionException(" Invalid Minimum BW Limit");
            }
            b.limitBw(v);
        }
        if (c.report.limitMsgRate != null) {
            Double v = CNumbers.parseDouble(c.report.limitMsgRate);
            if (v == null || v < 0) {
                throw new OptionException(" Invalid Minimum msgRate Limit");
            }
            b.limitMsgRate(v);
        }
        if (c.report.reportCounters != null) {
            List<String> names = new ArrayList<>();
            for (String n : c.report.reportCounters.split(",")) {
                if (n.isBlank()) {
                    throw new OptionException("Failed to parse the performance counter list");
                }
                names.add(n.trim());
            }
            b.reportCounters(names);
        }
        b.reportUnit(c.report.reportGbits ? ReportUnit.GBIT_PER_SEC : ReportUnit.MB_PER_SEC);
        b.runInfinitely(c.shape.runInfinitely);
        b.exchangeVersions(!c.peer.dontExchangeVersions);
        b.ipv6(c.peer.ipv6).oldPostSend(c.queues.oldPostSend).srq(c.queues.srq).useOoo(c.queues.useOoo).warmUp(c.shape.warmUp).mrPerQp(c.device.mrPerQp);
        if (c.peer.sourceIp != null) {
            b.sourceIp(c.peer.sourceIp);
        }
        if (c.queues.inlineSize == null) {
            b.inlineSize(Queues.defaultInline(kind, b.connection()));
        }
        RateLimitRules rate = RateLimitRules.parse(c);

        rejectConflicts(c, b);
        applyDependencies(b, rate);
        checkRequestedUdSize(b);
        return b.build();
    }

    /** Combinations perftest accepts but silently overrides; refused here so nothing is ignored. */
    private static void rejectConflicts(PerftestCommand c, PerftestOptions.Builder b) {
        if (c.shape.all && c.shape.size != null) {
            throw new OptionException(" -a runs every size from 2 to " + PerftestOptions.MAX_SIZE
                    + " bytes; it cannot be combined with -s");
        }
        if (c.shape.duration != null && c.shape.iters != null) {
            throw new OptionException(" -D runs for a time, not a number of iterations; it cannot be combined with -n");
        }
        if (c.shape.runInfinitely && c.shape.all) {
            throw new OptionException(" --run_infinitely runs one size; it cannot be combined with -a");
        }
        if (c.shape.runInfinitely && c.shape.iters != null) {
            throw new OptionException(" --run_infinitely runs until stopped; it cannot be combined with -n");
        }
    }

    /** perftest's {@code force_dependecies}, in its order. */
    private static void applyDependencies(PerftestOptions.Builder b, RateLimitRules rate) {
        TestKind kind = b.kind();
        Verb verb = kind.verb();
        boolean iterationsMode = !b.durationMode() && !b.runInfinitely();

        if (iterationsMode) {
            if (b.txDepth() > b.iterations()) {
                b.txDepth((int) b.iterations());
            }
            if (verb == Verb.SEND && b.rxDepth() > b.iterations()) {
                b.rxDepth((int) b.iterations());
            }
            if ((b.connection() == ConnectionType.UD || b.connection() == ConnectionType.UC)
                    && b.rxDepth() == TestKind.DEFAULT_RX_DEPTH_SEND) {
                b.rxDepth((int) Math.min(b.iterations(), Queues.UC_MAX_RX));
            }
        }
        if (b.size() > Queues.CQ_MOD_SIZE_LIMIT && b.connection() != ConnectionType.UD && !b.runAll() && !b.events()) {
            if (!b.cqModerationRequested()) {
                b.cqModeration(1);
            } else if (b.cqModeration() > 1) {
                b.note(PerftestFormats.RESULT_LINE);
                b.note("Warning: Large message requested and CQ moderation enabled");
                b.note("Warning: It can lead to inaccurate results");
            }
        }
        if (b.cqModeration() > b.txDepth()) {
            b.cqModeration(b.txDepth());
        }
        if (verb.usesOutstandingReads()) {
            b.inlineSize(0);
        }
        if (b.runAll()) {
            b.size(PerftestOptions.MAX_SIZE);
        }
        if (verb == Verb.ATOMIC && b.size() != TestKind.ATOMIC_SIZE) {
            throw new OptionException("Message size cannot be changed for Atomic tests");
        }
        if (b.srq() && verb != Verb.SEND) {
            throw new OptionException(" Using SRQ only available in SEND tests.");
        }
        if (b.useOoo() && b.connection() != ConnectionType.RC) {
            // perftest's verify_ooo_settings: the device's ooo_caps offer it for RC only here
            throw new OptionException(" OOO unsupported by HCA on " + b.connection() + " QP");
        }
        if (b.srq() && b.numQps() > b.rxDepth()) {
            throw new OptionException(" Using SRQ depth should be greater than number of QPs.");
        }
        if (b.postList() > 1) {
            if (!kind.isBandwidth()) {
                throw new OptionException("Post list is supported in BW tests only");
            }
            if (iterationsMode && b.iterations() % b.postList() != 0) {
                throw new OptionException("Number of iterations must be a multiple of post list size");
            }
            if (!b.cqModerationRequested()) {
                b.cqModeration(b.postList());
                b.note(PerftestFormats.RESULT_LINE);
                b.note("Post List requested - CQ moderation will be the size of the post list");
            } else if (b.postList() % b.cqModeration() != 0) {
                throw new OptionException("Post list size must be a multiple of CQ moderation");
            }
        }
        if (b.durationMode()) {
            b.iterations(0);
            b.noPeak(true);
            if (b.events()) {
                throw new OptionException("Duration mode doesn't work with events.");
            }
            if (b.runAll()) {
                throw new OptionException("Duration mode currently doesn't support running on all sizes.");
            }
        }
        if (b.rdmaCm()) {
            if (b.connection() == ConnectionType.UC) {
                throw new OptionException(" UC is not supported in librdmacm");
            }
        } else if (b.tos() != -1) {
            throw new OptionException(" TOS only valid for rdma_cm based QP and RawEth QP ");
        }
        if (verb == Verb.SEND && kind.isBandwidth() && b.host() == null && !b.bidirectional()) {
            b.noPeak(true);
        }
        if (b.runInfinitely()) {
            b.noPeak(true);
            b.durationMode(true);
            b.iterations(0);
            if (b.events()) {
                throw new OptionException(" run_infinitely does not support events feature yet.");
            }
            if (kind.isLatency()) {
                throw new OptionException(" run_infinitely exists only in BW tests for now.");
            }
            if (b.bidirectional() && verb == Verb.SEND) {
                throw new OptionException(" run_infinitely mode is not supported in SEND Bidirectional BW test");
            }
            if (rate.limited()) {
                throw new OptionException(" run_infinitely does not support rate limit feature yet");
            }
        }
        if (b.connection() == ConnectionType.UD && b.inlineSize() > Queues.MAX_INLINE_UD) {
            b.note(PerftestFormats.RESULT_LINE);
            b.note("Setting inline size to " + Queues.MAX_INLINE_UD + " (Max inline size in UD)");
            b.inlineSize(Queues.MAX_INLINE_UD);
        }
        if (verb == Verb.SEND && b.rxDepth() % 2 == 1 && !b.runAll() && !b.runInfinitely()) {
            b.rxDepth(b.rxDepth() + 1);
        }
        if (iterationsMode && b.iterations() > TestShape.NO_PEAK_ITERATIONS && kind.isBandwidth()) {
            b.noPeak(true);
        }
        if (b.durationMode() && b.marginSeconds() == -1) {
            b.marginSeconds(b.durationSeconds() / 4);
        }
        if (!(b.durationSeconds() > 2L * b.marginSeconds())) {
            throw new OptionException("please check that DURATION > 2*MARGIN");
        }
        if (!b.events() && b.eventVector() != -1) {
            throw new OptionException(" Events must be enabled to select a completion vector");
        }
        b.rateLimit(rate.resolve(b));
    }

    /**
     * A UD message the user sized must fit the MTU: the one given with {@code -m}, else the
     * {@linkplain Mtu#DEFAULT port MTU rocelab assumes}. A default size is left alone here and
     * lowered once the peers have agreed on the MTU ({@link PerftestOptions#forMtu}).
     */
    private static void checkRequestedUdSize(PerftestOptions.Builder b) {
        Mtu mtu = b.requestedMtu() == null ? Mtu.DEFAULT : b.requestedMtu();
        if (b.connection() == ConnectionType.UD && b.sizeRequested() && !b.runAll() && b.size() > mtu.bytes()) {
            throw new OptionException(" Max message size in UD cannot be greater than MTU (" + mtu.bytes() + ")");
        }
    }

    /**
     * The UD rule of perftest's {@code check_mtu}: a UD message must fit one MTU. A size the user
     * asked for is an error; the default size is lowered to the MTU with a note.
     */
    static void checkUdSize(PerftestOptions.Builder b, Mtu mtu) {
        if (b.connection() != ConnectionType.UD || b.size() <= mtu.bytes()) {
            return;
        }
        if (b.runAll() || !b.sizeRequested()) {
            b.note(" Max msg size in UD is MTU " + mtu.bytes());
            b.note(" Changing to this MTU");
            b.size(mtu.bytes());
        } else {
            throw new OptionException(" Max message size in UD cannot be greater than MTU (" + mtu.bytes() + ")");
        }
    }

    private static long integer(String text, String name) {
        Long v = CNumbers.parse(text);
        if (v == null) {
            throw new OptionException(" " + name.trim() + " argument " + text + " should be an integer");
        }
        return v;
    }

    private static long range(String text, String name, long min, long max) {
        long v = integer(text, name);
        if (v < min || v > max) {
            throw new OptionException(" " + name.trim() + " should be between " + min + " and " + max);
        }
        return v;
    }
}
