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
    private final String[] poolNames;
    private final long[] poolSize;
    private final long[] poolShared;
    private final long[] sharedUsed;
    private final long[] totalUsed;
    private final long[] poolWatermark;
    private final PgState[][] pgs;
    private final long[][] queueBytes;
    private final BufferProfile[][] queueProfiles;
    private final PfcSignal signal;

    /**
     * @param config the switch configuration
     * @param signal where pause decisions go
     * @throws ConfigException if the reserved and headroom bytes do not fit in their pool
     */
    public Mmu(SwitchConfig config, PfcSignal signal) {
        this.signal = signal;
        Map<String, Long> pools = config.pools();
        List<String> names = new ArrayList<>(pools.keySet());
        if (names.isEmpty()) {
            names.add("default");
        }
        int n = names.size();
        poolNames = names.toArray(new String[0]);
        poolSize = new long[n];
        poolShared = new long[n];
        sharedUsed = new long[n];
        totalUsed = new long[n];
        poolWatermark = new long[n];
        for (int i = 0; i < n; i++) {
            poolSize[i] = pools.getOrDefault(poolNames[i], 64L << 20);
            poolShared[i] = poolSize[i];
        }
        int ports = config.ports().size();
        pgs = new PgState[ports][8];
        queueBytes = new long[ports][8];
        queueProfiles = new BufferProfile[ports][8];
        for (int p = 0; p < ports; p++) {
            PortConfig pc = config.ports().get(p);
            for (int g = 0; g < 8; g++) {
                BufferProfile prof = pc.pgProfiles()[g];
                int pool = prof == null ? 0 : Math.max(0, names.indexOf(prof.pool()));
                pgs[p][g] = new PgState(prof, pool);
                if (prof != null) {
                    poolShared[pool] -= prof.size() + prof.headroom();
                }
                queueProfiles[p][g] = pc.queues()[g].buffer();
            }
        }
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (poolShared[i] < 0) {
                problems.add("BUFFER_POOL|" + poolNames[i] + ": size " + poolSize[i]
                    + " is smaller than the reserved size + headroom of the PGs in BUFFER_PG ("
                    + (poolSize[i] - poolShared[i]) + ")");
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
        PgState pg = pgs[ctx.ingressPort][ctx.priorityGroup];
        BufferProfile prof = pg.profile;
        int pool = pg.pool;
        int len = ctx.length;
        boolean lossless = ctx.lossless && prof != null && prof.lossless();
        if (lossless) {
            return admitLossless(ctx, pg, prof, pool, len);
        }
        BufferProfile qp = queueProfiles[ctx.egressPort][ctx.queue];
        if (qp != null && queueBytes[ctx.egressPort][ctx.queue] + len > limit(qp, pool)) {
            return DropReason.BUFFER_FULL;
        }
        if (prof != null && pg.used() + len > limit(prof, pool) + prof.size()) {
            return DropReason.BUFFER_FULL;
        }
        if (prof != null && pg.reservedUsed + len <= prof.size()) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (sharedUsed[pool] + len <= poolShared[pool]) {
            pg.sharedUsed += len;
            sharedUsed[pool] += len;
            ctx.chargedShared = len;
        } else {
            return DropReason.BUFFER_FULL;
        }
        charged(ctx, pg, pool, len);
        return null;
    }

    private DropReason admitLossless(PacketContext ctx, PgState pg, BufferProfile prof, int pool, int len) {
        if (pg.reservedUsed + len <= prof.size()) {
            pg.reservedUsed += len;
            ctx.chargedReserved = len;
        } else if (!pg.xoffSent && pg.used() + len <= prof.xoff()
                && sharedUsed[pool] + len <= poolShared[pool]) {
            pg.sharedUsed += len;
            sharedUsed[pool] += len;
            ctx.chargedShared = len;
        } else if (pg.headroomUsed + len <= prof.headroom()) {
            pg.headroomUsed += len;
            ctx.chargedHeadroom = len;
            pg.headroomWatermark = Math.max(pg.headroomWatermark, pg.headroomUsed);
        } else {
            return DropReason.HEADROOM_EXHAUSTED;
        }
        charged(ctx, pg, pool, len);
        if (!pg.xoffSent && (pg.used() >= prof.xoff() || ctx.chargedHeadroom > 0)) {
            pg.xoffSent = true;
            signal.xoff(ctx.ingressPort, ctx.priorityGroup);
        }
        return null;
    }

    private void charged(PacketContext ctx, PgState pg, int pool, int len) {
        totalUsed[pool] += len;
        poolWatermark[pool] = Math.max(poolWatermark[pool], totalUsed[pool]);
        pg.watermark = Math.max(pg.watermark, pg.used());
        queueBytes[ctx.egressPort][ctx.queue] += len;
    }

    /** SONiC dynamic threshold: 2^alpha × free shared bytes; else the static threshold; else no cap. */
    private long limit(BufferProfile p, int pool) {
        if (p.hasDynamicTh()) {
            long free = Math.max(0, poolShared[pool] - sharedUsed[pool]);
            return p.dynamicTh() >= 0 ? free << p.dynamicTh() : free >> -p.dynamicTh();
        }
        return p.staticTh() >= 0 ? p.staticTh() : Long.MAX_VALUE / 4;
    }

    /** Gives back what {@link #admit} charged, when the frame leaves its queue or is flushed. */
    public void release(PacketContext ctx) {
        PgState pg = pgs[ctx.ingressPort][ctx.priorityGroup];
        int pool = pg.pool;
        pg.reservedUsed -= ctx.chargedReserved;
        pg.sharedUsed -= ctx.chargedShared;
        sharedUsed[pool] -= ctx.chargedShared;
        pg.headroomUsed -= ctx.chargedHeadroom;
        totalUsed[pool] -= ctx.length;
        queueBytes[ctx.egressPort][ctx.queue] -= ctx.length;
        if (pg.xoffSent && pg.used() <= pg.profile.xon()) {
            pg.xoffSent = false;
            signal.xon(ctx.ingressPort, ctx.priorityGroup);
        }
    }

    /** @return the PG of an ingress port */
    public PgState pg(int port, int pg) {
        return pgs[port][pg];
    }

    /** @return bytes queued for an egress queue */
    public long queueBytes(int port, int queue) {
        return queueBytes[port][queue];
    }

    public int poolCount() {
        return poolNames.length;
    }

    public String poolName(int pool) {
        return poolNames[pool];
    }

    public long poolSize(int pool) {
        return poolSize[pool];
    }

    /** @return bytes held from the pool, reserved and headroom included */
    public long poolUsed(int pool) {
        return totalUsed[pool];
    }

    /** @return the most bytes the pool ever held */
    public long poolWatermark(int pool) {
        return poolWatermark[pool];
    }
}
