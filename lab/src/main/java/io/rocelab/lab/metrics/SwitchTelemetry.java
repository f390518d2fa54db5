package io.rocelab.lab.metrics;

import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.SwitchCounters;
import io.rocelab.sw.egress.EgressPort;
import io.rocelab.sw.mmu.Mmu;
import io.rocelab.sw.mmu.PgState;
import java.util.ArrayList;
import io.rocelab.sw.vxlan.TunnelCounters;
import io.rocelab.sw.vxlan.Vtep;
import io.rocelab.sw.vxlan.VxlanViews;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One switch as a scrape sees it: its counters ({@link SwitchCounters}, what {@code show interfaces
 * counters}, {@code show pfc counters}, {@code show queue counters} and {@code show pfcwd stats}
 * print) and, per port, the buffer state the watermark views print, all copied at one instant of
 * the switch's owner thread. Immutable once taken: any thread may read it.
 *
 * @param name     the switch's name (its {@code DEVICE_METADATA} hostname, or the lab's node name)
 * @param counters the counters since the switch started (never since a {@code clear counters}: a
 *                 Prometheus counter only grows, as SONiC's COUNTERS_DB does under {@code sonic-clear})
 * @param ports    per port, in port order, its queues and priority groups
 * @param pools    the buffer pools
 * @param tunnels  a VTEP's tunnels as {@code show vxlan counters} names them (the VTEP's sum, then
 *                 {@code EVPN_<ip>} per remote VTEP), copied; empty for a switch that is no VTEP
 */
public record SwitchTelemetry(String name, SwitchCounters counters, List<PortBuffers> ports, List<Pool> pools,
                              Map<String, TunnelCounters> tunnels) {

    /** A switch that is no VTEP. */
    public SwitchTelemetry(String name, SwitchCounters counters, List<PortBuffers> ports, List<Pool> pools) {
        this(name, counters, ports, pools, Map.of());
    }

    /**
     * One port's buffers and pause state.
     *
     * @param queueDepthBytes     bytes queued now per egress queue (the MMU's charge)
     * @param queueWatermarkBytes the most bytes each egress queue has held since the switch started
     *                            (SAI's {@code SAI_QUEUE_STAT_WATERMARK_BYTES}, SONiC's {@code show queue
     *                            watermark unicast}; rocelab's {@code clear watermark} leaves it)
     * @param priorityPaused      per priority, whether a PFC frame from the link partner holds it now
     * @param portPaused          whether an 802.3x PAUSE from the link partner holds the port now
     * @param pgSharedWatermark   per PG, {@code SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES}
     * @param pgHeadroomWatermark per PG, {@code SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES}
     * @param pgSharedPersistent  per PG, the shared watermark since the switch started
     *                            ({@code show priority-group persistent-watermark shared})
     * @param pgHeadroomPersistent per PG, the headroom watermark since the switch started
     * @param pgDrops             per PG, {@code SAI_INGRESS_PRIORITY_GROUP_STAT_DROPPED_PACKETS}
     */
    public record PortBuffers(long[] queueDepthBytes, long[] queueWatermarkBytes, boolean[] priorityPaused,
                              boolean portPaused, long[] pgSharedWatermark, long[] pgHeadroomWatermark,
                              long[] pgSharedPersistent, long[] pgHeadroomPersistent, long[] pgDrops) {
    }

    /**
     * One buffer pool ({@code BUFFER_POOL}).
     *
     * @param name                its config_db key
     * @param usedBytes           shared bytes held now
     * @param watermarkBytes      {@code SAI_BUFFER_POOL_STAT_WATERMARK_BYTES} ({@code show buffer_pool watermark})
     * @param persistentBytes     the same since the switch started ({@code show buffer_pool persistent-watermark})
     * @param headroomWatermarkBytes {@code SAI_BUFFER_POOL_STAT_XOFF_ROOM_WATERMARK_BYTES} ({@code show headroom-pool watermark})
     */
    public record Pool(String name, long usedBytes, long watermarkBytes, long persistentBytes,
                       long headroomWatermarkBytes) {
    }

    /**
     * Copies {@code sw}'s counters and buffers. Call it on the switch's owner thread (or, in virtual
     * time, between events): it reads the MMU and the egress queues, which only that thread writes.
     */
    public static SwitchTelemetry take(String name, SoftSwitch sw) {
        if (!sw.scheduler().inOwnerThread()) {
            throw new IllegalStateException("a switch's telemetry is taken on its owner thread");
        }
        SwitchCounters counters = sw.countersSnapshot();
        Mmu mmu = sw.mmu();
        long now = sw.scheduler().nanoTime();
        List<PortBuffers> ports = new ArrayList<>();
        for (int p = 0; p < counters.ports().size(); p++) {
            EgressPort egress = sw.egress(p);
            long[] depth = new long[8];
            long[] qwm = new long[8];
            boolean[] paused = new boolean[8];
            long[] shared = new long[8];
            long[] headroom = new long[8];
            long[] sharedP = new long[8];
            long[] headroomP = new long[8];
            long[] drops = new long[8];
            for (int i = 0; i < 8; i++) {
                depth[i] = mmu.queueBytes(p, i);
                qwm[i] = egress.queue(i).watermarkBytes();
                paused[i] = egress.priorityPaused(i, now);
                PgState pg = mmu.pg(p, i);
                shared[i] = pg.sharedWatermark();
                headroom[i] = pg.headroomWatermark();
                sharedP[i] = pg.persistentSharedWatermark();
                headroomP[i] = pg.persistentHeadroomWatermark();
                drops[i] = pg.drops();
            }
            ports.add(new PortBuffers(depth, qwm, paused, egress.portPaused(now), shared, headroom, sharedP, headroomP,
                drops));
        }
        List<Pool> pools = new ArrayList<>();
        for (int i = 0; i < mmu.poolCount(); i++) {
            pools.add(new Pool(mmu.poolName(i), mmu.poolUsed(i), mmu.poolWatermark(i), mmu.poolPersistentWatermark(i),
                mmu.poolHeadroomWatermark(i)));
        }
        Map<String, TunnelCounters> tunnels = new LinkedHashMap<>();
        Vtep vtep = sw.vtep();
        if (vtep != null) {
            tunnels.put(vtep.config().tunnel().name(), vtep.total());
            vtep.counters().forEach((ip, c) -> tunnels.put(VxlanViews.tunnelName(ip), c));
        }
        return new SwitchTelemetry(name, counters, List.copyOf(ports), List.copyOf(pools),
            java.util.Collections.unmodifiableMap(tunnels));
    }
}
