package io.rocelab.topology.qos;

import java.util.List;
import java.util.Map;

/**
 * The QoS profiles a topology can name.
 *
 * <ul>
 *   <li>{@code lossless}: a Mellanox SN2700 T1 with SONiC's default QoS
 *       ({@code device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/buffers_defaults_t1.j2},
 *       {@code pg_profile_lookup.ini}, {@code files/build_templates/qos_config.j2}): DSCP 26 -> TC 3
 *       with PFC on priority 3; {@code ingress_lossless_pool} of 3302912 shared bytes (per 32
 *       ports), mode dynamic; each port's lossless PG the profile SONiC's buffer manager works out
 *       for an SN2700 port of its speed and cable ({@code pg_lossless_100000_5m_profile}: size 91136,
 *       xon 18432, xoff 72704, dynamic_th 0: a headroom for NICs that take IEEE 802.3's 394 pause
 *       quanta to stop, where the static {@code pg_profile_lookup.ini}'s 30720 assumes 3.8 KiB);
 *       the lossy PG dynamic_th 3; ECN on queue 3 with {@code AZURE_LOSSLESS} (min 1048576, max
 *       2097152, probability 5 %, {@code ecn_all}; rocelab marks only, where SONiC's template also
 *       enables WRED, which would drop a not-ECN-capable packet in that band); DSCP 48 -> TC 6 for
 *       CNPs on a strict queue, ETS 14:15 between queues 0 and 3, the PFC watchdog with SONiC's
 *       200 ms.</li>
 *   <li>{@code lossy}: the same classes, ECN and ETS without PFC (and so without the watchdog):
 *       the RoCE class drops when its buffer share is full.</li>
 * </ul>
 */
public final class QosProfiles {
    /** {@code ingress_lossless_pool} of an SN2700 T1, shared bytes. */
    public static final long SN2700_POOL = 3_302_912;
    /** {@code AZURE_LOSSLESS}'s thresholds. */
    public static final long AZURE_LOSSLESS_MIN = 1_048_576;
    public static final long AZURE_LOSSLESS_MAX = 2_097_152;

    public static final QosProfile LOSSLESS = new QosProfile("lossless", 3, 26, 3, 48, 6, 18_432, -1, 0, false, 3,
        SN2700_POOL, AZURE_LOSSLESS_MIN, AZURE_LOSSLESS_MAX, 0.05, 14, 15, QosProfile.SONIC_WATCHDOG, 200);
    public static final QosProfile LOSSY = new QosProfile("lossy", -1, 26, 3, 48, 6, 0, -1, 0, false, 3,
        SN2700_POOL, AZURE_LOSSLESS_MIN, AZURE_LOSSLESS_MAX, 0.05, 14, 15, null, 200);

    private static final Map<String, QosProfile> BY_NAME = Map.of(LOSSLESS.name(), LOSSLESS, LOSSY.name(), LOSSY);

    private QosProfiles() {
    }

    /** @return the profile called {@code name}, or null */
    public static QosProfile named(String name) {
        return BY_NAME.get(name);
    }

    /** @return the names, sorted */
    public static List<String> names() {
        return BY_NAME.keySet().stream().sorted().toList();
    }
}
