package io.rocelab.sw.mmu;

import io.rocelab.sw.config.BufferPool;
import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The memory management unit: buffer admission and accounting, kept apart from forwarding (as in
 * bmv2's traffic manager and the ns-3 RDMA switch MMU), in SAI's buffer model ({@code saibuffer.h}).
 *
 * <p>Every frame is charged to its ingress port's priority group: first to the PG's reserved bytes
 * ({@link BufferProfile#reservedBytes()}), then to the shared part of its pool, up to the PG's
 * shared limit: {@code dynamic_th} n lets it hold 2^n times the pool's free shared bytes
 * ({@code SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH}), {@code static_th} a fixed number of bytes, and
 * a profile with neither is bounded by the pool alone. A lossless PG (IEEE 802.1Qbb) asks for XOFF
 * when its shared use reaches that limit and keeps taking what still arrives into its headroom, at
 * most {@code xoff} bytes ({@code SAI_BUFFER_PROFILE_ATTR_XOFF_TH}), from the pool's shared
 * headroom pool ({@code BUFFER_POOL xoff}) when the pool has one, else from its own; it drops only
 * when the headroom is spent ({@link DropReason#HEADROOM_EXHAUSTED}). It asks for XON when its use
 * falls to {@code max(xon, limit - xon_offset)} ({@code SAI_BUFFER_PROFILE_ATTR_XON_TH},
 * {@code XON_OFFSET_TH}; the limit is its reserved bytes plus its shared limit; without an
 * {@code xon_offset}, {@code xon}). So a PG pauses at {@code reservedBytes + shared limit} and drops
 * {@code xoff} bytes later, as sonic-mgmt's QoS tests expect of Mellanox and Broadcom switches
 * ({@code tests/qos/files/mellanox/qos_param_generator.py}: {@code pkts_num_trig_pfc = shared + xon
 * + hysteresis}, {@code pkts_num_trig_ingr_drp = shared + size}).
 *
 * <p>Pool accounting: a pool's {@code size} is its shared part. Reserved bytes and private
 * headroom are set aside outside it (as on SONiC's Mellanox static configurations, whose pool sizes
 * are what remains once each port's reserved and headroom buffers are taken), so they never eat
 * into what the PGs share; a shared headroom pool is counted on its own. A lossy PG tail-drops when
 * the pool, its shared limit, or its egress queue's {@code BUFFER_QUEUE} cap would be exceeded.
 *
 * <p>A port that sends 802.3x PAUSE ({@code global_flow_control tx|both}) is one flow-control class:
 * its frames, whatever their PG, are admitted against the whole port's bytes and its lossless
 * profile's thresholds ({@link PortPauseState}), and the MMU asks the {@link PauseSignal} for PAUSE
 * and its resume; each frame is still charged to its PG and pool as above, so the views and
 * watermarks read the same.
 */
public final class Mmu {
    /** One buffer pool's numbers side by side: admission reads and writes them together. */
    private static final class Pool {
        final String name;
        /** The shared bytes. */
        final long shared;
        /** The shared headroom pool, 0 for none. */
        final long headroomPool;
        long sharedUsed;
        long headroomPoolUsed;
        long watermark;
        long headroomPoolWatermark;
        long persistentWatermark;
        long persistentHeadroomPoolWatermark;

        Pool(String name, long shared, long headroomPool) {
            this.name = name;
            this.shared = shared;
            this.headroomPool = headroomPool;
        }
    }

    /** A pool size for a switch whose configuration has none (a test's bare switch): 64 MiB. */
    private static final long DEFAULT_POOL = 64L << 20;

    private final Pool[] pools;
    /** Per ingress port and PG, at {@code port * 8 + pg}. */
    private final PgState[] pgs;
    /** Per egress port and queue, at {@code port * 8 + queue}. */
    private final long[] queueBytes;
    private final BufferProfile[] queueProfiles;
    private final PfcSignal signal;
    /** Per ingress port, its 802.3x state, or null when the port sends no PAUSE. */
    private final PortPauseState[] portPause;
    private final PauseSignal pauseSignal;

    /**
     * @param config the switch configuration
     * @param signal where pause decisions go
     */
    public Mmu(SwitchConfig config, PfcSignal signal) {
        this(config, signal, PauseSignal.NONE);
    }

    /**
     * @param config      the switch configuration
     * @param signal      where PFC decisions go
     * @param pauseSignal where 802.3x PAUSE decisions go (ports with {@code global_flow_control tx|both})
     */
    public Mmu(SwitchConfig config, PfcSignal signal, PauseSignal pauseSignal) {
        this.signal = signal;
        this.pauseSignal = pauseSignal;
        Map<String, BufferPool> configured = config.pools();
        List<String> names = new ArrayList<>(configured.keySet());
        if (names.isEmpty()) {
            names.add("default");
        }
        int n = names.size();
        pools = new Pool[n];
        for (int i = 0; i < n; i++) {
            BufferPool bp = configured.get(names.get(i));
            pools[i] = bp == null ? new Pool(names.get(i), DEFAULT_POOL, 0) : new Pool(bp.name(), bp.size(), bp.xoff());
        }
        int ports = config.ports().size();
        pgs = new PgState[ports * 8];
        queueBytes = new long[ports * 8];
        queueProfiles = new BufferProfile[ports * 8];
        portPause = new PortPauseState[ports];
        for (int p = 0; p < ports; p++) {
            PortConfig pc = config.ports().get(p);
            if (pc.globalFlowControl().sends()) {
                BufferProfile pause = pauseProfile(pc);
                if (pause != null) {
                    portPause[p] = new PortPauseState(pause, Math.max(0, names.indexOf(pause.pool())));
                }
            }
            for (int g = 0; g < 8; g++) {
                BufferProfile prof = pc.pgProfiles()[g];
                int pool = prof == null ? 0 : Math.max(0, names.indexOf(prof.pool()));
                pgs[p * 8 + g] = new PgState(prof, pool);
                queueProfiles[p * 8 + g] = pc.queues()[g].buffer();
            }
        }
    }

    /**
     * Charges the frame or refuses it.
     *
     * @return null if admitted, else the drop reason
     */
    public DropReason admit(PacketContext ctx) {
        PgState pg = pgs[ctx.ingressPort * 8 + ctx.priorityGroup];
        BufferProfile prof = pg.profile;
        Pool pool = pools[pg.pool];
        int len = ctx.length;
        PortPauseState pause = portPause[ctx.ingressPort];
        if (pause != null) {
            return admitPortPause(ctx, pause, pg, pool, len);
        }
        if (ctx.lossless && pg.lossless) {
            return admitLossless(ctx, pg, pool, len);
        }
        int queue = ctx.egressPort * 8 + ctx.queue;
        BufferProfile qp = queueProfiles[queue];
        if (qp != null && queueBytes[queue] + len > limit(qp, pool)) {
            pg.drops++;
            return DropReason.BUFFER_FULL;
        }
        if (pg.reservedUsed + len <= pg.reserved) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (pg.sharedUsed + len <= sharedLimit(prof, pool) && pool.sharedUsed + len <= pool.shared) {
            chargeShared(ctx, pg, pool, len);
        } else {
            pg.drops++;
            return DropReason.BUFFER_FULL;
        }
        charged(pg, queue, len);
        return null;
    }

    private DropReason admitLossless(PacketContext ctx, PgState pg, Pool pool, int len) {
        long limit = sharedLimit(pg.profile, pool);
        if (pg.reservedUsed + len <= pg.reserved) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (!pg.xoffSent && pg.sharedUsed + len <= limit && pool.sharedUsed + len <= pool.shared) {
            chargeShared(ctx, pg, pool, len);
        } else if (pg.headroomUsed + len <= pg.xoff
            && (pool.headroomPool == 0 || pool.headroomPoolUsed + len <= pool.headroomPool)) {
            if (pool.headroomPool > 0) {
                pg.headroomFromPool += len;
                pool.headroomPoolUsed += len;
                pool.headroomPoolWatermark = Math.max(pool.headroomPoolWatermark, pool.headroomPoolUsed);
                pool.persistentHeadroomPoolWatermark = Math.max(pool.persistentHeadroomPoolWatermark,
                    pool.headroomPoolUsed);
            }
            chargeHeadroom(ctx, pg, len);
        } else {
            pg.headroomDrops++;
            pg.drops++;
            return DropReason.HEADROOM_EXHAUSTED;
        }
        charged(pg, ctx.egressPort * 8 + ctx.queue, len);
        if (!pg.xoffSent && (ctx.chargedHeadroom > 0 || pg.sharedUsed >= sharedLimit(pg.profile, pool))) {
            pg.xoffSent = true;
            pg.xoffCount++;
            signal.xoff(ctx.ingressPort, ctx.priorityGroup);
        }
        return null;
    }

    /** Charges {@code len} bytes to the PG's headroom, with its watermarks. */
    private static void chargeHeadroom(PacketContext ctx, PgState pg, int len) {
        pg.headroomUsed += len;
        ctx.chargedHeadroom = len;
        pg.headroomWatermark = Math.max(pg.headroomWatermark, pg.headroomUsed);
        pg.persistentHeadroomWatermark = Math.max(pg.persistentHeadroomWatermark, pg.headroomUsed);
    }

    /** The port's first lossless PG profile: its 802.3x thresholds ({@link PortPauseState}). */
    private static BufferProfile pauseProfile(PortConfig pc) {
        for (BufferProfile p : pc.pgProfiles()) {
            if (p != null && p.lossless()) {
                return p;
            }
        }
        return null;
    }

    /** The port's pause point: its profile's reserved bytes plus its shared limit now. */
    private long pauseLimit(PortPauseState pause) {
        return pause.reserved + sharedLimit(pause.profile, pools[pause.pool]);
    }

    /**
     * Admission on a port that sends 802.3x PAUSE: the whole port's bytes against its pause point,
     * then its headroom ({@code xoff}) once the PAUSE is out; charged to the frame's PG as usual.
     */
    private DropReason admitPortPause(PacketContext ctx, PortPauseState pause, PgState pg, Pool pool, int len) {
        long limit = pauseLimit(pause);
        if (pg.reservedUsed + len <= pg.reserved) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (!pause.xoffSent && pause.used + len <= limit && pool.sharedUsed + len <= pool.shared) {
            chargeShared(ctx, pg, pool, len);
        } else if (pause.headroomUsed + len <= pause.xoff) {
            pause.headroomUsed += len;
            chargeHeadroom(ctx, pg, len);
        } else {
            pg.headroomDrops++;
            pg.drops++;
            pause.drops++;
            return DropReason.HEADROOM_EXHAUSTED;
        }
        pause.used += len;
        charged(pg, ctx.egressPort * 8 + ctx.queue, len);
        if (!pause.xoffSent && (ctx.chargedHeadroom > 0 || pause.used >= limit)) {
            pause.xoffSent = true;
            pause.xoffCount++;
            pauseSignal.xoff(ctx.ingressPort);
        }
        return null;
    }

    private static void chargeShared(PacketContext ctx, PgState pg, Pool pool, int len) {
        pg.sharedUsed += len;
        pool.sharedUsed += len;
        ctx.chargedShared = len;
        pg.sharedWatermark = Math.max(pg.sharedWatermark, pg.sharedUsed);
        pg.persistentSharedWatermark = Math.max(pg.persistentSharedWatermark, pg.sharedUsed);
        pool.watermark = Math.max(pool.watermark, pool.sharedUsed);
        pool.persistentWatermark = Math.max(pool.persistentWatermark, pool.sharedUsed);
    }

    private void charged(PgState pg, int queue, int len) {
        pg.watermark = Math.max(pg.watermark, pg.used());
        pg.persistentWatermark = Math.max(pg.persistentWatermark, pg.used());
        queueBytes[queue] += len;
    }

    /**
     * The PG's shared limit: SONiC's dynamic threshold, 2^{@code dynamic_th} times the pool's free
     * shared bytes; else its {@code static_th}; else the pool's shared size.
     */
    private static long sharedLimit(BufferProfile p, Pool pool) {
        if (p == null) {
            return pool.shared;
        }
        return limit(p, pool);
    }

    /** SONiC dynamic threshold: 2^alpha × free shared bytes; else the static threshold; else the pool. */
    private static long limit(BufferProfile p, Pool pool) {
        if (p.hasDynamicTh()) {
            long free = Math.max(0, pool.shared - pool.sharedUsed);
            return p.dynamicTh() >= 0 ? free << p.dynamicTh() : free >> -p.dynamicTh();
        }
        return p.staticTh() >= 0 ? p.staticTh() : pool.shared;
    }

    /**
     * Gives back what {@link #admit} charged, when the frame leaves its queue or is flushed. The
     * PG's headroom is emptied first, then its shared part, then its reserved part, whichever part
     * paid for this frame (as ns-3's {@code SwitchMmu::RemoveFromIngressAdmission} and switch ASICs
     * do): the headroom is for what arrives after the next XOFF, and it must be whole again once the
     * PG is back below XON, though the frames it took may still sit deep in a congested queue.
     */
    public void release(PacketContext ctx) {
        PgState pg = pgs[ctx.ingressPort * 8 + ctx.priorityGroup];
        Pool pool = pools[pg.pool];
        long left = ctx.length;
        long fromHeadroom = Math.min(pg.headroomUsed, left);
        pg.headroomUsed -= fromHeadroom;
        left -= fromHeadroom;
        if (pg.headroomFromPool > pg.headroomUsed) {
            long back = pg.headroomFromPool - pg.headroomUsed;
            pg.headroomFromPool -= back;
            pool.headroomPoolUsed -= back;
        }
        long fromShared = Math.min(pg.sharedUsed, left);
        pg.sharedUsed -= fromShared;
        pool.sharedUsed -= fromShared;
        left -= fromShared;
        pg.reservedUsed -= Math.min(pg.reservedUsed, left);
        queueBytes[ctx.egressPort * 8 + ctx.queue] -= ctx.length;
        if (pg.xoffSent && pg.used() <= xonThreshold(pg, pool)) {
            pg.xoffSent = false;
            signal.xon(ctx.ingressPort, ctx.priorityGroup);
        }
        PortPauseState pause = portPause[ctx.ingressPort];
        if (pause != null) {
            pause.used -= ctx.length;
            pause.headroomUsed -= Math.min(pause.headroomUsed, ctx.length);
            if (pause.xoffSent && pause.used <= portXonThreshold(pause)) {
                pause.xoffSent = false;
                pauseSignal.xon(ctx.ingressPort);
            }
        }
    }

    /** The port's resume point: {@code max(xon, limit - xon_offset)}, {@code xon} without an offset. */
    private long portXonThreshold(PortPauseState pause) {
        if (pause.xonOffset <= 0) {
            return pause.xon;
        }
        return Math.max(pause.xon, pauseLimit(pause) - pause.xonOffset);
    }

    /** @return the 802.3x state of an ingress port, or null if it sends no PAUSE */
    public PortPauseState portPause(int port) {
        return portPause[port];
    }

    /**
     * SAI's XON condition: total use {@code <= max(XON_TH, total limit - XON_OFFSET_TH)}, the total
     * limit being the reserved bytes plus the shared limit at this moment; without an offset, XON_TH.
     */
    private static long xonThreshold(PgState pg, Pool pool) {
        if (pg.xonOffset <= 0) {
            return pg.xon;
        }
        return Math.max(pg.xon, pg.reserved + sharedLimit(pg.profile, pool) - pg.xonOffset);
    }

    /** @return the PG of an ingress port */
    public PgState pg(int port, int pg) {
        return pgs[port * 8 + pg];
    }

    /** @return bytes queued for an egress queue */
    public long queueBytes(int port, int queue) {
        return queueBytes[port * 8 + queue];
    }

    public int poolCount() {
        return pools.length;
    }

    public String poolName(int pool) {
        return pools[pool].name;
    }

    public long poolSize(int pool) {
        return pools[pool].shared;
    }

    /** @return shared bytes of the pool ({@code BUFFER_POOL size}) */
    public long poolShared(int pool) {
        return pools[pool].shared;
    }

    /** @return the pool's shared headroom pool ({@code BUFFER_POOL xoff}), 0 for none */
    public long poolHeadroom(int pool) {
        return pools[pool].headroomPool;
    }

    /** @return shared bytes the PGs hold from the pool now */
    public long poolUsed(int pool) {
        return pools[pool].sharedUsed;
    }

    /** @return bytes held from the shared headroom pool now */
    public long poolHeadroomUsed(int pool) {
        return pools[pool].headroomPoolUsed;
    }

    /** @return the most shared bytes the pool held ({@code SAI_BUFFER_POOL_STAT_WATERMARK_BYTES}) */
    public long poolWatermark(int pool) {
        return pools[pool].watermark;
    }

    /** @return the most bytes its shared headroom pool held ({@code SAI_BUFFER_POOL_STAT_XOFF_ROOM_WATERMARK_BYTES}) */
    public long poolHeadroomWatermark(int pool) {
        return pools[pool].headroomPoolWatermark;
    }

    /** @return the pool's watermark since the switch started ({@code show buffer_pool persistent-watermark}) */
    public long poolPersistentWatermark(int pool) {
        return pools[pool].persistentWatermark;
    }

    /** Starts the watermarks of every pool and PG again ({@code sonic-clear ... watermark}); persistent ones stay. */
    public void clearWatermarks() {
        for (Pool p : pools) {
            p.watermark = p.sharedUsed;
            p.headroomPoolWatermark = p.headroomPoolUsed;
        }
        for (PgState pg : pgs) {
            pg.clearWatermarks();
        }
    }
}
