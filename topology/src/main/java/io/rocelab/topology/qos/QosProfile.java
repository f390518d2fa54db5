package io.rocelab.topology.qos;

import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.PfcWdAction;
import io.rocelab.sw.config.PfcWdConfig;
import io.rocelab.sw.config.SchedulerConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.config.WredProfile;
import java.util.List;

/**
 * The QoS of a RoCE fabric in one piece, written into every port of a switch as SONiC's tables:
 * RoCE's DSCP in its traffic class and CNPs' DSCP in theirs ({@code DSCP_TO_TC_MAP}), that class in
 * a lossless priority group with PFC ({@code PORT_QOS_MAP pfc_enable}, {@code BUFFER_PG} with
 * xon/xoff/headroom), ECN marking on its queue ({@code WRED_PROFILE} with {@code ecn}), ETS weights
 * for the lossy and RoCE queues and a strict queue for CNPs ({@code SCHEDULER}, {@code QUEUE}), and
 * the PFC watchdog ({@code PFC_WD}). Names of the entries are those of SONiC's templates
 * ({@code AZURE}, {@code AZURE_LOSSLESS}, ...), as the demo's {@code leaf.json}.
 *
 * @param name              what a topology calls it
 * @param pfcPriority       the priority with PFC on, -1 for none (a lossy fabric)
 * @param roceDscp          RoCE's DSCP (26)
 * @param roceTc            its traffic class, queue and priority group (3)
 * @param cnpDscp           CNPs' DSCP (48)
 * @param cnpTc             their traffic class and queue (6), served strictly
 * @param xon               lossless PG resume threshold, bytes
 * @param xoff              lossless PG pause threshold, bytes
 * @param headroom          lossless PG headroom, bytes
 * @param lossyDynamicTh    {@code dynamic_th} of the lossy PGs
 * @param sharedPoolBytes   shared buffer kept beside every PG's reserved headroom
 * @param minPoolBytes      the smallest {@code BUFFER_POOL} size
 * @param ecnMinThreshold   RoCE queue's {@code green_min_threshold}, bytes (Kmin)
 * @param ecnMaxThreshold   its {@code green_max_threshold}, bytes (Kmax)
 * @param ecnMaxProbability its {@code green_drop_probability} as a fraction (Pmax)
 * @param lossyWeight       DWRR weight of queue 0
 * @param roceWeight        DWRR weight of the RoCE queue
 * @param watchdog          the PFC watchdog on every port, or null for none
 * @param watchdogPollMillis {@code PFC_WD|GLOBAL POLL_INTERVAL}
 */
public record QosProfile(String name, int pfcPriority, int roceDscp, int roceTc, int cnpDscp, int cnpTc, long xon,
                         long xoff, long headroom, int lossyDynamicTh, long sharedPoolBytes, long minPoolBytes,
                         long ecnMinThreshold, long ecnMaxThreshold, double ecnMaxProbability, int lossyWeight,
                         int roceWeight, PfcWdConfig watchdog, long watchdogPollMillis) {
    /** The table entries' names. */
    public static final String MAP = "AZURE";
    public static final String POOL = "ingress_lossless_pool";
    public static final String LOSSLESS_PG_PROFILE = "pg_lossless_soft_nic_profile";
    public static final String LOSSY_PG_PROFILE = "ingress_lossy_profile";
    public static final String WRED = "AZURE_LOSSLESS";
    public static final String LOSSY_SCHEDULER = "scheduler.0";
    public static final String ROCE_SCHEDULER = "scheduler.1";
    public static final String CNP_SCHEDULER = "scheduler.cnp";

    /** @return whether the RoCE class is lossless (PFC on its priority) */
    public boolean lossless() {
        return pfcPriority >= 0;
    }

    /** @return RoCE's IP traffic class on the hosts: its DSCP with ECT(0), so that switches can mark CE */
    public int roceTrafficClass() {
        return roceDscp << 2 | 0b10;
    }

    /** @return a copy with the PFC watchdog {@code wd}, null for none */
    public QosProfile withWatchdog(PfcWdConfig wd) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, headroom, lossyDynamicTh,
            sharedPoolBytes, minPoolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability, lossyWeight,
            roceWeight, wd, watchdogPollMillis);
    }

    /** @return a copy with ECN marking between {@code kmin} and {@code kmax} bytes, up to {@code pmax} */
    public QosProfile withEcn(long kmin, long kmax, double pmax) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, headroom, lossyDynamicTh,
            sharedPoolBytes, minPoolBytes, kmin, kmax, pmax, lossyWeight, roceWeight, watchdog, watchdogPollMillis);
    }

    /** @return a copy with the ETS weights of queue 0 and of the RoCE queue */
    public QosProfile withWeights(int lossy, int roce) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, headroom, lossyDynamicTh,
            sharedPoolBytes, minPoolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability, lossy, roce, watchdog,
            watchdogPollMillis);
    }

    /**
     * Writes the profile into every port of {@code t} (ports added later get none of it). The pool
     * is sized so that every lossless PG's headroom is reserved (the MMU's rule) with
     * {@link #sharedPoolBytes} left to share, and never below {@link #minPoolBytes}.
     *
     * @return {@code t}
     */
    public SwitchConfigBuilder applyTo(SwitchConfigBuilder t) {
        List<String> ports = t.portNames();
        if (ports.isEmpty()) {
            return t;
        }
        String all = String.join(",", ports);
        int[] dscp = new int[64];
        dscp[roceDscp] = roceTc;
        dscp[cnpDscp] = cnpTc;
        int[] tcToPg = new int[8];
        tcToPg[roceTc] = roceTc;
        int[] tcToQueue = {0, 1, 2, 3, 4, 5, 6, 7};
        t.dscpToTcMap(MAP, dscp).tcToPriorityGroupMap(MAP, tcToPg).tcToQueueMap(MAP, tcToQueue);
        t.portQosMap(all, lossless() ? SwitchConfigBuilder.PortQosMap.dscp(MAP, MAP, MAP, pfcPriority)
            : SwitchConfigBuilder.PortQosMap.dscp(MAP, MAP, MAP));
        long reserved = lossless() ? (long) ports.size() * headroom : 0;
        t.bufferPool(POOL, Math.max(minPoolBytes, reserved + sharedPoolBytes));
        t.bufferProfile(new BufferProfile(LOSSY_PG_PROFILE, POOL, 0, 0, 0, 0, -1, lossyDynamicTh));
        if (lossless()) {
            t.bufferProfile(new BufferProfile(LOSSLESS_PG_PROFILE, POOL, 0, xon, xoff, headroom, -1, Integer.MIN_VALUE));
            t.bufferPg(all + "|" + roceTc, LOSSLESS_PG_PROFILE);
        } else {
            t.bufferPg(all + "|" + roceTc, LOSSY_PG_PROFILE);
        }
        t.bufferPg(all + "|0", LOSSY_PG_PROFILE);
        t.wredProfile(new WredProfile(WRED, false, true, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability));
        t.scheduler(new SchedulerConfig(LOSSY_SCHEDULER, false, lossyWeight))
            .scheduler(new SchedulerConfig(ROCE_SCHEDULER, false, roceWeight))
            .scheduler(new SchedulerConfig(CNP_SCHEDULER, true, 1));
        t.queue(all + "|0", LOSSY_SCHEDULER, null).queue(all + "|" + roceTc, ROCE_SCHEDULER, WRED)
            .queue(all + "|" + cnpTc, CNP_SCHEDULER, null);
        t.pfcWdPollInterval(watchdogPollMillis);
        if (watchdog != null && lossless()) {
            t.pfcWd(all, watchdog);
        }
        return t;
    }

    /** SONiC's default watchdog: drop after 200 ms of storm, restore after 200 ms of quiet. */
    static final PfcWdConfig SONIC_WATCHDOG = new PfcWdConfig(PfcWdAction.DROP, 200_000_000L, 200_000_000L);
}
