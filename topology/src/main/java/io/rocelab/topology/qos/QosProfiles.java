package io.rocelab.topology.qos;

import java.util.List;
import java.util.Map;

/**
 * The QoS profiles a topology can name.
 *
 * <ul>
 *   <li>{@code lossless}: the demo leaf's QoS. DSCP 26 -> TC 3 with PFC on priority 3 (xoff 36 KiB,
 *       xon 18 KiB, 8 MiB headroom: the soft NIC's in-flight window), ECN on queue 3 (Kmin 150 KiB,
 *       Kmax 1.5 MiB, Pmax 10 %), DSCP 48 -> TC 6 for CNPs on a strict queue, ETS 14:15 between
 *       queues 0 and 3, the PFC watchdog with SONiC's 200 ms.</li>
 *   <li>{@code lossy}: the same classes, ECN and ETS without PFC (and so without the watchdog):
 *       the RoCE class drops when its buffer share is full.</li>
 * </ul>
 */
public final class QosProfiles {
    public static final QosProfile LOSSLESS = new QosProfile("lossless", 3, 26, 3, 48, 6, 18_432, 36_864,
        8_388_608, 3, 16L << 20, 32L << 20, 153_600, 1_536_000, 0.10, 14, 15, QosProfile.SONIC_WATCHDOG, 200);
    public static final QosProfile LOSSY = new QosProfile("lossy", -1, 26, 3, 48, 6, 0, 0, 0, 3, 16L << 20,
        32L << 20, 153_600, 1_536_000, 0.10, 14, 15, null, 200);

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
