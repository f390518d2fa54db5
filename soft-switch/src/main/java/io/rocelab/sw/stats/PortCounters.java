package io.rocelab.sw.stats;

import io.rocelab.sw.pipeline.DropReason;

/**
 * The counters of one switch port, named as SONiC shows them: PFC frames per priority received
 * and sent ({@code show pfc counters}), per-queue packets/bytes/drops ({@code show queue counters}),
 * ECN marks, and drops by reason. Written only by the switch's owner thread; read them there or
 * after the run.
 */
public final class PortCounters {
    public final long[] rxPfc = new long[8];
    public final long[] txPfc = new long[8];
    public final long[] txXon = new long[8];
    public final long[] queueTxPackets = new long[8];
    public final long[] queueTxBytes = new long[8];
    public final long[] queueDropPackets = new long[8];
    public final long[] queueDropBytes = new long[8];
    public final long[] queueEcnMarked = new long[8];
    public final long[] drops = new long[DropReason.values().length];
    public long rxFrames;
    public long rxBytes;
    public long txFrames;
    public long txBytes;

    /** @return drops for one reason */
    public long drops(DropReason r) {
        return drops[r.ordinal()];
    }

    /** @return all drops on this port */
    public long totalDrops() {
        long s = 0;
        for (long d : drops) {
            s += d;
        }
        return s;
    }
}
