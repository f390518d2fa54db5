package io.rocelab.perftest.run;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.report.BwMeasurement;
import io.rocelab.perftest.report.LatMeasurement;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * A data path that moves nothing: it hands out fixed key records and returns measurements with
 * made-up but regular timestamps, and records what the session asked of it.
 */
final class FakeEngine implements TestEngine {
    static final double NS_PER_SECOND = 1e9;

    final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private final DeviceInfo device;
    private final int firstQpn;
    private final int psn;
    private final Gid gid;
    private RunContext context;
    volatile List<KeyRecord> remote;

    FakeEngine(String ip, int firstQpn, int psn) {
        this.device = DeviceInfo.roce("rocelab0", Mtu.MTU_1024, 128);
        this.firstQpn = firstQpn;
        this.psn = psn;
        try {
            this.gid = Gid.of(InetAddress.getByName(ip));
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public DeviceInfo open(PerftestOptions options) {
        calls.add("open");
        return device;
    }

    @Override
    public List<KeyRecord> createQps(RunContext ctx) {
        this.context = ctx;
        calls.add("createQps mtu=" + ctx.mtu().bytes() + " outReads=" + ctx.outReads() + " gid=" + ctx.gidIndex());
        List<KeyRecord> keys = new ArrayList<>();
        boolean rdma = ctx.options().kind().verb() != io.rocelab.perftest.Verb.SEND;
        for (int i = 0; i < ctx.options().numQps(); i++) {
            keys.add(new KeyRecord(0, ctx.outReads(), firstQpn + i, psn + i, rdma ? 0x200 + i : 0,
                    rdma ? 0x7f0000000000L + 0x10000L * i : 0, gid, 0));
        }
        return keys;
    }

    @Override
    public void connect(List<KeyRecord> remoteKeys) {
        calls.add("connect " + remoteKeys.size());
        this.remote = List.copyOf(remoteKeys);
    }

    /** Messages 1 us apart, each completing 4 us after it was posted. */
    @Override
    public BwMeasurement runBandwidth(long size) {
        calls.add("runBandwidth " + size);
        PerftestOptions o = context.options();
        if (o.durationMode()) {
            return BwMeasurement.total(size, 250_000, 0, 1_000_000_000L, NS_PER_SECOND);
        }
        int n = (int) (o.iterations() * o.numQps());
        long[] posted = new long[n];
        long[] completed = new long[n];
        for (int i = 0; i < n; i++) {
            posted[i] = i * 1000L;
            completed[i] = posted[i] + 4000;
        }
        if (o.noPeak()) {
            return new BwMeasurement(size, o.iterations(), o.numQps(), o.postList(), o.cqModeration(), true, false, 1,
                    new long[] {0}, new long[] {completed[n - 1]}, NS_PER_SECOND);
        }
        return new BwMeasurement(size, o.iterations(), o.numQps(), o.postList(), o.cqModeration(), false, false, 1,
                posted, completed, NS_PER_SECOND);
    }

    /** Iterations 3 us apart, with a little jitter. */
    @Override
    public LatMeasurement runLatency(long size) {
        calls.add("runLatency " + size);
        PerftestOptions o = context.options();
        long[] posted = new long[(int) o.iterations()];
        for (int i = 1; i < posted.length; i++) {
            posted[i] = posted[i - 1] + 3000 + (i % 5) * 100;
        }
        return new LatMeasurement(size, o.iterations(), o.kind().verb(), posted, 1000);
    }

    @Override
    public LatDuration runLatencyForDuration(long size) {
        calls.add("runLatencyForDuration " + size);
        return new LatDuration(400_000, 2_000_000_000L, 1000);
    }

    @Override
    public void runInfinitely(long size, Consumer<BwMeasurement> eachPeriod) {
        calls.add("runInfinitely " + size);
        for (int i = 1; i <= 2; i++) {
            eachPeriod.accept(BwMeasurement.total(size, 100_000L * i, 0, 5_000_000_000L, NS_PER_SECOND));
        }
    }

    @Override
    public void close() {
        calls.add("close");
    }
}
