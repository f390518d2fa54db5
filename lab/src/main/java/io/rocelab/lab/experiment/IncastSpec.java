package io.rocelab.lab.experiment;

import io.rocelab.nic.cc.DcqcnParams;
import java.util.Objects;

/**
 * An N:1 incast on one leaf, in virtual time: N senders each write to one receiver through a soft
 * switch whose lossless class (DSCP 26, PFC on priority 3) has WRED/ECN on its queue.
 *
 * @param senders         N
 * @param linkGbps        every link's speed
 * @param dcqcn           DCQCN on the hosts' NICs (else no congestion control)
 * @param params          DCQCN's parameters
 * @param durationUs      simulated time
 * @param sampleUs        sampling period of the time series
 * @param messageBytes    size of each RDMA WRITE
 * @param outstanding     WRITEs each sender keeps posted
 * @param ecnMinBytes     WRED/ECN: marking starts at this queue depth (Kmin)
 * @param ecnMaxBytes     WRED/ECN: every packet marked above it (Kmax)
 * @param ecnMaxPercent   marking probability at Kmax (Pmax)
 * @param lateStartUs     sender 1 starts this late (0: all at once)
 * @param earlyStopUs     sender 2 stops at this time (0: never)
 * @param seed            the switch's WRED seed
 * @param pgDynamicTh     {@code dynamic_th} of the lossless PGs (0: the SN2700's, each PG may hold as much as the
 *                        pool has free; lower: a shallower share, PFC sooner)
 */
public record IncastSpec(int senders, int linkGbps, boolean dcqcn, DcqcnParams params, long durationUs,
                         long sampleUs, int messageBytes, int outstanding, long ecnMinBytes, long ecnMaxBytes,
                         int ecnMaxPercent, long lateStartUs, long earlyStopUs, long seed, int pgDynamicTh) {

    public IncastSpec {
        Objects.requireNonNull(params, "params");
        check(senders >= 1 && senders <= 256, "senders must be 1..256: " + senders);
        check(linkGbps >= 1 && linkGbps <= 800, "link speed must be 1..800 Gb/s: " + linkGbps);
        check(durationUs > 0, "duration must be > 0 us: " + durationUs);
        check(sampleUs > 0 && sampleUs <= durationUs, "sample period must be 1.." + durationUs + " us: " + sampleUs);
        check(messageBytes >= 1 && messageBytes <= 1 << 24, "message size must be 1..16777216 bytes: " + messageBytes);
        check(outstanding >= 1 && outstanding <= 128, "outstanding WRITEs must be 1..128: " + outstanding);
        check(ecnMinBytes > 0 && ecnMaxBytes > ecnMinBytes, "ECN thresholds need 0 < Kmin < Kmax: " + ecnMinBytes
            + ", " + ecnMaxBytes);
        check(ecnMaxPercent >= 0 && ecnMaxPercent <= 100, "Pmax must be 0..100 %: " + ecnMaxPercent);
        check(lateStartUs >= 0 && lateStartUs < durationUs, "late start must be 0.." + durationUs + " us");
        check(earlyStopUs >= 0 && earlyStopUs < durationUs, "early stop must be 0.." + durationUs + " us");
        check((lateStartUs == 0 && earlyStopUs == 0) || senders >= 3, "a late start or an early stop needs 3 senders");
        check(pgDynamicTh >= -8 && pgDynamicTh <= 8, "the PGs' dynamic_th must be -8..8: " + pgDynamicTh);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** 16:1 at 100 Gb/s with the firmware's DCQCN defaults, ECN at 100-400 KB (20 %), 10 ms. */
    public static IncastSpec defaults(int senders, boolean dcqcn) {
        return new IncastSpec(senders, 100, dcqcn, DcqcnParams.defaults(), 10_000, 10, 65_536, 8, 100_000,
            400_000, 20, 0, 0, 1, 0);
    }

    public IncastSpec withDuration(long us) {
        return new IncastSpec(senders, linkGbps, dcqcn, params, us, sampleUs, messageBytes, outstanding, ecnMinBytes,
            ecnMaxBytes, ecnMaxPercent, lateStartUs, earlyStopUs, seed, pgDynamicTh);
    }

    public IncastSpec withStartStop(long lateStart, long earlyStop) {
        return new IncastSpec(senders, linkGbps, dcqcn, params, durationUs, sampleUs, messageBytes, outstanding,
            ecnMinBytes, ecnMaxBytes, ecnMaxPercent, lateStart, earlyStop, seed, pgDynamicTh);
    }

    public IncastSpec withParams(DcqcnParams p) {
        return new IncastSpec(senders, linkGbps, dcqcn, p, durationUs, sampleUs, messageBytes, outstanding, ecnMinBytes,
            ecnMaxBytes, ecnMaxPercent, lateStartUs, earlyStopUs, seed, pgDynamicTh);
    }

    public IncastSpec withEcn(long kmin, long kmax, int pmax) {
        return new IncastSpec(senders, linkGbps, dcqcn, params, durationUs, sampleUs, messageBytes, outstanding, kmin,
            kmax, pmax, lateStartUs, earlyStopUs, seed, pgDynamicTh);
    }

    public IncastSpec withSeed(long s) {
        return new IncastSpec(senders, linkGbps, dcqcn, params, durationUs, sampleUs, messageBytes, outstanding,
            ecnMinBytes, ecnMaxBytes, ecnMaxPercent, lateStartUs, earlyStopUs, s, pgDynamicTh);
    }

    /** @return a copy whose lossless PGs have {@code dynamic_th} {@code th} */
    public IncastSpec withPgDynamicTh(int th) {
        return new IncastSpec(senders, linkGbps, dcqcn, params, durationUs, sampleUs, messageBytes, outstanding,
            ecnMinBytes, ecnMaxBytes, ecnMaxPercent, lateStartUs, earlyStopUs, seed, th);
    }
}
