package io.rocelab.sw.mmu;

import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The memory management unit: buffer admission and accounting, kept apart from forwarding (as in
 * bmv2's traffic manager and the ns-3 RDMA switch MMU).
 *
 * <p>Every frame is charged to its ingress port's priority group, first to the PG's reserved
 * bytes ({@code size}), then to the shared part of its pool. A lossless PG (IEEE 802.1Qbb) asks
 * for XOFF when it holds {@code xoff} bytes or the shared pool is exhausted, then keeps absorbing
 * into its own {@code headroom} (carved out of the pool at start, so it is always there) what the
 * cable still delivers; it asks for XON when it drains to {@code xon}. A lossy PG tail-drops when
 * the pool, its {@code static_th}/{@code dynamic_th}, or its egress queue's {@code BUFFER_QUEUE}
 * cap would be exceeded. The total held never exceeds the pool size.
 */
public final class Mmu {
    /** One buffer pool's numbers side by side: admission reads and writes them together. */
    private static final class Pool {
        final String name;
        final long size;
        /** The size less every PG's reserved bytes and headroom. */
        long shared;
        long sharedUsed;
        long totalUsed;
        long watermark;

        Pool(String name, long size) {
            this.name = name;
            this.size = size;
            this.shared = size;
        }
    }

    private final Pool[] pools;
    /** Per ingress port and PG, at {@code port * 8 + pg}. */
    private final PgState[] pgs;
    /** Per egress port and queue, at {@code port * 8 + queue}. */
    private final long[] queueBytes;
    private final BufferProfile[] queueProfiles;
    private final PfcSignal signal;

    /**
     * @param config the switch configuration
     * @param signal where pause decisions go
     * @throws ConfigException if the reserved and headroom bytes do not fit in their pool
     */
    public Mmu(SwitchConfig config, PfcSignal signal) {
        this.signal = signal;
        Map<String, Long> sizes = config.pools();
        List<String> names = new ArrayList<>(sizes.keySet());
        if (names.isEmpty()) {
            names.add("default");
        }
        int n = names.size();
        pools = new Pool[n];
        for (int i = 0; i < n; i++) {
            pools[i] = new Pool(names.get(i), sizes.getOrDefault(names.get(i), 64L << 20));
        }
        int ports = config.ports().size();
        pgs = new PgState[ports * 8];
        queueBytes = new long[ports * 8];
        queueProfiles = new BufferProfile[ports * 8];
        for (int p = 0; p < ports; p++) {
            PortConfig pc = config.ports().get(p);
            for (int g = 0; g < 8; g++) {
                BufferProfile prof = pc.pgProfiles()[g];
                int pool = prof == null ? 0 : Math.max(0, names.indexOf(prof.pool()));
                pgs[p * 8 + g] = new PgState(prof, pool);
                if (prof != null) {
                    pools[pool].shared -= prof.size() + prof.headroom();
                }
                queueProfiles[p * 8 + g] = pc.queues()[g].buffer();
            }
        }
        List<String> problems = new ArrayList<>();
        for (Pool pool : pools) {
            if (pool.shared < 0) {
                problems.add("BUFFER_POOL|" + pool.name + ": size " + pool.size
                    + " is smaller than the reserved size + headroom of the PGs in BUFFER_PG ("
                    + (pool.size - pool.shared) + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
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
        if (ctx.lossless && pg.lossless) {
            return admitLossless(ctx, pg, pool, len);
        }
        int queue = ctx.egressPort * 8 + ctx.queue;
        BufferProfile qp = queueProfiles[queue];
        if (qp != null && queueBytes[queue] + len > limit(qp, pool)) {
            return DropReason.BUFFER_FULL;
        }
        if (prof != null && pg.used() + len > limit(prof, pool) + pg.size) {
            return DropReason.BUFFER_FULL;
        }
        if (prof != null && pg.reservedUsed + len <= pg.size) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (pool.sharedUsed + len <= pool.shared) {
            pg.sharedUsed += len;
            pool.sharedUsed += len;
            ctx.chargedShared = len;
        } else {
            return DropReason.BUFFER_FULL;
        }
        charged(pg, pool, queue, len);
        return null;
    }

    private DropReason admitLossless(PacketContext ctx, PgState pg, Pool pool, int len) {
        if (pg.reservedUsed + len <= pg.size) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (!pg.xoffSent && pg.used() + len <= pg.xoff && pool.sharedUsed + len <= pool.shared) {
            pg.sharedUsed += len;
            pool.sharedUsed += len;
            ctx.chargedShared = len;
        } else if (pg.headroomUsed + len <= pg.headroom) {
            pg.headroomUsed += len;
            ctx.chargedHeadroom = len;
            pg.headroomWatermark = Math.max(pg.headroomWatermark, pg.headroomUsed);
        } else {
            return DropReason.HEADROOM_EXHAUSTED;
        }
        charged(pg, pool, ctx.egressPort * 8 + ctx.queue, len);
        if (!pg.xoffSent && (pg.used() >= pg.xoff || ctx.chargedHeadroom > 0)) {
            pg.xoffSent = true;
            signal.xoff(ctx.ingressPort, ctx.priorityGroup);
        }
        return null;
    }

    private void charged(PgState pg, Pool pool, int queue, int len) {
        pool.totalUsed += len;
        pool.watermark = Math.max(pool.watermark, pool.totalUsed);
        pg.watermark = Math.max(pg.watermark, pg.used());
        queueBytes[queue] += len;
    }

    /** SONiC dynamic threshold: 2^alpha × free shared bytes; else the static threshold; else no cap. */
    private static long limit(BufferProfile p, Pool pool) {
        if (p.hasDynamicTh()) {
            long free = Math.max(0, pool.shared - pool.sharedUsed);
            return p.dynamicTh() >= 0 ? free << p.dynamicTh() : free >> -p.dynamicTh();
        }
        return p.staticTh() >= 0 ? p.staticTh() : Long.MAX_VALUE / 4;
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
        long fromShared = Math.min(pg.sharedUsed, left);
        pg.sharedUsed -= fromShared;
        pool.sharedUsed -= fromShared;
        left -= fromShared;
        pg.reservedUsed -= Math.min(pg.reservedUsed, left);
        pool.totalUsed -= ctx.length;
        queueBytes[ctx.egressPort * 8 + ctx.queue] -= ctx.length;
        if (pg.xoffSent && pg.used() <= pg.xon) {
            pg.xoffSent = false;
            signal.xon(ctx.ingressPort, ctx.priorityGroup);
        }
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
        return pools[pool].size;
    }

    /** @return bytes held from the pool, reserved and headroom included */
    public long poolUsed(int pool) {
        return pools[pool].totalUsed;
    }

    /** @return the most bytes the pool ever held */
    public long poolWatermark(int pool) {
        return pools[pool].watermark;
    }
}
