package io.rocelab.topology.qos;

import io.rocelab.sw.config.BufferProfile;
import io.rocelab.sw.config.GlobalFlowControl;
import io.rocelab.sw.config.HeadroomModel;
import io.rocelab.sw.config.PfcWdAction;
import io.rocelab.sw.config.PfcWdConfig;
import io.rocelab.sw.config.SchedulerConfig;
import io.rocelab.sw.config.SwitchConfigBuilder;
import io.rocelab.sw.config.WredProfile;
import java.util.List;

/**
 * The QoS of a RoCE fabric in one piece, written into every port of a switch as SONiC's tables:
 * RoCE's DSCP in its traffic class and CNPs' DSCP in theirs ({@code DSCP_TO_TC_MAP}), that class in
 * a lossless priority group with PFC ({@code PORT_QOS_MAP pfc_enable}, {@code BUFFER_PG} with a
 * lossless {@code BUFFER_PROFILE}), ECN marking on its queue ({@code WRED_PROFILE} with {@code ecn}),
 * ETS weights for the lossy and RoCE queues and a strict queue for CNPs ({@code SCHEDULER},
 * {@code QUEUE}), and the PFC watchdog ({@code PFC_WD}). Names of the entries are those of SONiC's
 * templates ({@code AZURE}, {@code AZURE_LOSSLESS}, {@code ingress_lossless_pool},
 * {@code pg_lossless_100000_5m_profile}, ...).
 *
 * <p>The lossless PG's profile, in SAI's reading ({@link BufferProfile}): by default
 * ({@code xoff < 0}) each port gets the profile SONiC's buffer manager works out for an SN2700 port
 * of its speed and cable length ({@code buffer_headroom_mellanox.lua} with Spectrum-1's figures,
 * {@link HeadroomModel#SPECTRUM_DYNAMIC}: 100G over 5 m is size 91136, xon 18432, xoff 72704),
 * written as a static profile named as SONiC names it ({@code pg_lossless_100000_5m_profile}). Its
 * headroom covers a NIC that takes as long to stop as IEEE 802.3 allows (394 pause quanta at 100G);
 * the older static {@code pg_profile_lookup.ini} (xoff 30720 at 100G over 5 m,
 * {@link HeadroomModel#SN2700_LOOKUP}) assumes a 3.8 KiB response and loses frames to such a NIC,
 * and stays the validator's minimum, which the profile never goes below ({@link HeadroomModel#sn2700}:
 * at 1G, with 2 pause quanta, the lookup's is the larger). With {@code dynamicHeadroom} one {@code headroom_type dynamic}
 * profile that the switch works out per port (the same numbers); with an {@code xoff} of its own,
 * one profile of {@code size = xon + xoff} for every port (the Mellanox layout). Every one of them
 * has {@code dynamic_th} {@code losslessDynamicTh}.
 *
 * <p>The pools are per switch, as on a real one: {@code poolBytes} shared bytes for every
 * {@value #PORTS_PER_POOL} ports in {@code ingress_lossless_pool}, and as much in
 * {@code ingress_lossy_pool} for the lossy PGs (the SN2700 T1 template's two ingress pools of
 * 3302912 shared bytes for its 32 ports), so that a lossless incast filling its pool leaves the
 * lossy class its own; a soft switch with more ports gets that much again for each 32 or part of
 * it, as if it were built of SN2700s.
 *
 * @param name              what a topology calls it
 * @param pfcPriority       the priority with PFC on, -1 for none (a lossy fabric)
 * @param roceDscp          RoCE's DSCP (26)
 * @param roceTc            its traffic class, queue and priority group (3)
 * @param cnpDscp           CNPs' DSCP (48)
 * @param cnpTc             their traffic class and queue (6), served strictly
 * @param xon               lossless PG {@code xon}, bytes (with {@code xoff})
 * @param xoff              lossless PG headroom, bytes, or -1 for the SN2700 profile of each port's speed and cable
 * @param losslessDynamicTh {@code dynamic_th} of the lossless PG
 * @param dynamicHeadroom   {@code headroom_type dynamic}: the switch works each port's headroom out
 * @param lossyDynamicTh    {@code dynamic_th} of the lossy PGs
 * @param poolBytes         shared bytes of each ingress pool per {@value #PORTS_PER_POOL} ports
 * @param ecnMinThreshold   RoCE queue's {@code green_min_threshold}, bytes (Kmin)
 * @param ecnMaxThreshold   its {@code green_max_threshold}, bytes (Kmax)
 * @param ecnMaxProbability its {@code green_drop_probability} as a fraction (Pmax)
 * @param lossyWeight       DWRR weight of queue 0
 * @param roceWeight        DWRR weight of the RoCE queue
 * @param watchdog          the PFC watchdog on every port, or null for none
 * @param watchdogPollMillis {@code PFC_WD|GLOBAL POLL_INTERVAL}
 * @param linkPause         802.3x PAUSE instead of PFC: every port {@code global_flow_control both} (rocelab's
 *                          {@code PORT} field), no {@code pfc_enable} and no watchdog; the lossless PG's profile
 *                          stays, its numbers the ports' pause thresholds
 */
public record QosProfile(String name, int pfcPriority, int roceDscp, int roceTc, int cnpDscp, int cnpTc, long xon,
                         long xoff, int losslessDynamicTh, boolean dynamicHeadroom, int lossyDynamicTh, long poolBytes,
                         long ecnMinThreshold, long ecnMaxThreshold, double ecnMaxProbability, int lossyWeight,
                         int roceWeight, PfcWdConfig watchdog, long watchdogPollMillis, boolean linkPause) {
    /** The table entries' names. */
    public static final String MAP = "AZURE";
    public static final String POOL = "ingress_lossless_pool";
    /** The lossy PGs' pool, beside the lossless one (as the SN2700 T1 template has it). */
    public static final String LOSSY_POOL = "ingress_lossy_pool";
    /** The lossless profile's name when the fabric gives its own xoff, or a dynamic headroom. */
    public static final String LOSSLESS_PG_PROFILE = "pg_lossless_profile";
    public static final String LOSSY_PG_PROFILE = "ingress_lossy_profile";
    public static final String WRED = "AZURE_LOSSLESS";
    public static final String LOSSY_SCHEDULER = "scheduler.0";
    public static final String ROCE_SCHEDULER = "scheduler.1";
    public static final String CNP_SCHEDULER = "scheduler.cnp";
    /** The ports one {@link #poolBytes} serves (an SN2700's). */
    public static final int PORTS_PER_POOL = 32;
    /** A cable whose length no {@code CABLE_LENGTH} gives: SONiC's default, 5 m. */
    private static final int DEFAULT_CABLE_METERS = 5;

    /** A profile with PFC (or none), no 802.3x PAUSE. */
    public QosProfile(String name, int pfcPriority, int roceDscp, int roceTc, int cnpDscp, int cnpTc, long xon,
                      long xoff, int losslessDynamicTh, boolean dynamicHeadroom, int lossyDynamicTh, long poolBytes,
                      long ecnMinThreshold, long ecnMaxThreshold, double ecnMaxProbability, int lossyWeight,
                      int roceWeight, PfcWdConfig watchdog, long watchdogPollMillis) {
        this(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh, dynamicHeadroom,
            lossyDynamicTh, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability, lossyWeight, roceWeight,
            watchdog, watchdogPollMillis, false);
    }

    /**
     * @return a copy whose ports run 802.3x PAUSE ({@code true}) instead of PFC on the RoCE priority:
     *         the same buffers, the lossless profile's thresholds taken by the whole port
     */
    public QosProfile withLinkPause(boolean pause) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh,
            dynamicHeadroom, lossyDynamicTh, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability,
            lossyWeight, roceWeight, watchdog, watchdogPollMillis, pause);
    }

    /** @return whether the ports send PFC for the RoCE priority (a lossless profile without 802.3x PAUSE) */
    public boolean pfc() {
        return lossless() && !linkPause;
    }

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
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh,
            dynamicHeadroom, lossyDynamicTh, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability,
            lossyWeight, roceWeight, wd, watchdogPollMillis, linkPause);
    }

    /** @return a copy whose watchdog polls every {@code millis} */
    public QosProfile withWatchdogPoll(long millis) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh,
            dynamicHeadroom, lossyDynamicTh, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability,
            lossyWeight, roceWeight, watchdog, millis, linkPause);
    }

    /** @return a copy with ECN marking between {@code kmin} and {@code kmax} bytes, up to {@code pmax} */
    public QosProfile withEcn(long kmin, long kmax, double pmax) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh,
            dynamicHeadroom, lossyDynamicTh, poolBytes, kmin, kmax, pmax, lossyWeight, roceWeight, watchdog,
            watchdogPollMillis, linkPause);
    }

    /** @return a copy with the ETS weights of queue 0 and of the RoCE queue */
    public QosProfile withWeights(int lossy, int roce) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh,
            dynamicHeadroom, lossyDynamicTh, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability, lossy,
            roce, watchdog, watchdogPollMillis, linkPause);
    }

    /**
     * @param newXon          the lossless PG's xon
     * @param newXoff         its headroom, -1 for each port's SN2700 profile
     * @param dynamicTh       its {@code dynamic_th}
     * @param dynamicHr       {@code headroom_type dynamic}
     * @return a copy with that lossless PG
     */
    public QosProfile withLosslessPg(long newXon, long newXoff, int dynamicTh, boolean dynamicHr) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, newXon, newXoff, dynamicTh, dynamicHr,
            lossyDynamicTh, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability, lossyWeight, roceWeight,
            watchdog, watchdogPollMillis, linkPause);
    }

    /** @return a copy whose lossy PGs have {@code dynamic_th} {@code th} */
    public QosProfile withLossyDynamicTh(int th) {
        return new QosProfile(name, pfcPriority, roceDscp, roceTc, cnpDscp, cnpTc, xon, xoff, losslessDynamicTh,
            dynamicHeadroom, th, poolBytes, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability, lossyWeight,
            roceWeight, watchdog, watchdogPollMillis, linkPause);
    }

    /**
     * Writes the profile into every port of {@code t} (ports added later get none of it), each
     * port's lossless profile from its speed and {@code CABLE_LENGTH} when the profile has no
     * {@code xoff} of its own.
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
        t.portQosMap(all, pfc() ? SwitchConfigBuilder.PortQosMap.dscp(MAP, MAP, MAP, pfcPriority)
            : SwitchConfigBuilder.PortQosMap.dscp(MAP, MAP, MAP));
        if (linkPause) {
            // 802.3x on every port instead of PFC: rocelab's PORT global_flow_control
            for (String port : ports) {
                t.globalFlowControl(port, GlobalFlowControl.BOTH);
            }
        }
        long pool = poolBytes * ((ports.size() + PORTS_PER_POOL - 1) / PORTS_PER_POOL);
        t.bufferPool(POOL, pool).bufferPool(LOSSY_POOL, pool);
        t.bufferProfile(BufferProfile.lossy(LOSSY_PG_PROFILE, LOSSY_POOL, 0, lossyDynamicTh));
        if (!lossless()) {
            t.bufferPg(all + "|" + roceTc, LOSSY_PG_PROFILE);
        } else if (dynamicHeadroom) {
            t.bufferProfile(BufferProfile.dynamicHeadroom(LOSSLESS_PG_PROFILE, POOL, losslessDynamicTh));
            t.bufferPg(all + "|" + roceTc, LOSSLESS_PG_PROFILE);
        } else if (xoff >= 0) {
            t.bufferProfile(BufferProfile.lossless(LOSSLESS_PG_PROFILE, POOL, xon + xoff, xon, xoff, losslessDynamicTh));
            t.bufferPg(all + "|" + roceTc, LOSSLESS_PG_PROFILE);
        } else {
            for (String port : ports) {
                long speed = t.port(port).speedMbps() * 1_000_000L;
                int cable = t.cableLengthOf(port) >= 0 ? t.cableLengthOf(port) : DEFAULT_CABLE_METERS;
                HeadroomModel.Headroom h = HeadroomModel.sn2700(speed, cable, t.port(port).mtu());
                String profile = HeadroomModel.profileName(speed, cable);
                t.bufferProfile(BufferProfile.lossless(profile, POOL, h.size(), h.xon(), h.xoff(), losslessDynamicTh));
                t.bufferPg(port + "|" + roceTc, profile);
            }
        }
        t.bufferPg(all + "|0", LOSSY_PG_PROFILE);
        t.wredProfile(new WredProfile(WRED, false, true, ecnMinThreshold, ecnMaxThreshold, ecnMaxProbability));
        t.scheduler(new SchedulerConfig(LOSSY_SCHEDULER, false, lossyWeight))
            .scheduler(new SchedulerConfig(ROCE_SCHEDULER, false, roceWeight))
            .scheduler(new SchedulerConfig(CNP_SCHEDULER, true, 1));
        t.queue(all + "|0", LOSSY_SCHEDULER, null).queue(all + "|" + roceTc, ROCE_SCHEDULER, WRED)
            .queue(all + "|" + cnpTc, CNP_SCHEDULER, null);
        t.pfcWdPollInterval(watchdogPollMillis);
        if (watchdog != null && pfc()) {
            t.pfcWd(all, watchdog);
        }
        return t;
    }

    /** SONiC's default watchdog: drop after 200 ms of storm, restore after 200 ms of quiet. */
    static final PfcWdConfig SONIC_WATCHDOG = new PfcWdConfig(PfcWdAction.DROP, 200_000_000L, 200_000_000L);
}
