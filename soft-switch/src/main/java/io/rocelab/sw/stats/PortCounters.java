package io.rocelab.sw.stats;

import io.rocelab.sw.pipeline.DropReason;

/**
 * The counters of one switch port, named as SONiC shows them: PFC frames per priority received
 * and sent ({@code show pfc counters}), per-queue packets/bytes/drops ({@code show queue counters}),
 * ECN marks, and drops by reason. Written only by the switch's owner thread (plain fields: no
 * fence on the data path); read them there, after the run, or through a {@link #copy()} taken on
 * the owner thread ({@code SoftSwitch.countersSnapshot()}), which other threads may then read.
 */
public final class PortCounters {
    /** PFC frames received naming priority p (XOFF and XON: SAI's {@code PFC_p_RX_PKTS}). */
    public final long[] rxPfc = new long[8];
    /** PFC frames sent naming priority p (XOFF and XON: SAI's {@code PFC_p_TX_PKTS}). */
    public final long[] txPfc = new long[8];
    /**
     * Of {@link #rxPfc}, the ones for a priority whose PFC the port does not enable ({@code pfc_enable}):
     * counted by the MAC, not acted on.
     */
    public final long[] rxPfcIgnored = new long[8];
    /** Packets whose DSCP the egress {@code tc_to_dscp_map} rewrote as they left this port. */
    public long egressDscpRemarked;
    /** Of {@link #txPfc}, the XON frames (a zero pause time: resume). */
    public final long[] txXon = new long[8];
    /**
     * 802.3x PAUSE frames received, pause and resume alike (SAI's {@code SAI_PORT_STAT_PAUSE_RX_PKTS},
     * which orchagent polls into COUNTERS_DB; sonic-utilities' {@code show interfaces counters} has no
     * column for it: rocelab prints it in {@code show interfaces counters pause}).
     */
    public long rxPause;
    /** 802.3x PAUSE frames sent, pause and resume alike ({@code SAI_PORT_STAT_PAUSE_TX_PKTS}). */
    public long txPause;
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

    /** @return an independent copy of every counter; call on the owner thread */
    public PortCounters copy() {
        PortCounters c = new PortCounters();
        System.arraycopy(rxPfc, 0, c.rxPfc, 0, 8);
        System.arraycopy(txPfc, 0, c.txPfc, 0, 8);
        System.arraycopy(txXon, 0, c.txXon, 0, 8);
        System.arraycopy(rxPfcIgnored, 0, c.rxPfcIgnored, 0, 8);
        c.egressDscpRemarked = egressDscpRemarked;
        System.arraycopy(queueTxPackets, 0, c.queueTxPackets, 0, 8);
        System.arraycopy(queueTxBytes, 0, c.queueTxBytes, 0, 8);
        System.arraycopy(queueDropPackets, 0, c.queueDropPackets, 0, 8);
        System.arraycopy(queueDropBytes, 0, c.queueDropBytes, 0, 8);
        System.arraycopy(queueEcnMarked, 0, c.queueEcnMarked, 0, 8);
        System.arraycopy(drops, 0, c.drops, 0, drops.length);
        c.rxPause = rxPause;
        c.txPause = txPause;
        c.rxFrames = rxFrames;
        c.rxBytes = rxBytes;
        c.txFrames = txFrames;
        c.txBytes = txBytes;
        return c;
    }

    /**
     * The counts since a baseline, as SONiC's {@code sonic-clear counters} makes {@code show} print
     * them (it keeps the counters and subtracts the ones saved when cleared).
     *
     * @param base an earlier copy of the same port's counters
     * @return a new set: each counter minus the baseline's
     */
    public PortCounters minus(PortCounters base) {
        PortCounters c = new PortCounters();
        subtract(rxPfc, base.rxPfc, c.rxPfc);
        subtract(txPfc, base.txPfc, c.txPfc);
        subtract(txXon, base.txXon, c.txXon);
        subtract(rxPfcIgnored, base.rxPfcIgnored, c.rxPfcIgnored);
        c.egressDscpRemarked = egressDscpRemarked - base.egressDscpRemarked;
        subtract(queueTxPackets, base.queueTxPackets, c.queueTxPackets);
        subtract(queueTxBytes, base.queueTxBytes, c.queueTxBytes);
        subtract(queueDropPackets, base.queueDropPackets, c.queueDropPackets);
        subtract(queueDropBytes, base.queueDropBytes, c.queueDropBytes);
        subtract(queueEcnMarked, base.queueEcnMarked, c.queueEcnMarked);
        subtract(drops, base.drops, c.drops);
        c.rxPause = rxPause - base.rxPause;
        c.txPause = txPause - base.txPause;
        c.rxFrames = rxFrames - base.rxFrames;
        c.rxBytes = rxBytes - base.rxBytes;
        c.txFrames = txFrames - base.txFrames;
        c.txBytes = txBytes - base.txBytes;
        return c;
    }

    private static void subtract(long[] now, long[] base, long[] into) {
        for (int i = 0; i < into.length; i++) {
            into[i] = now[i] - base[i];
        }
    }

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
