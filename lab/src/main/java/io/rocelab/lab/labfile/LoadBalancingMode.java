package io.rocelab.lab.labfile;

import io.rocelab.sw.config.ArsConfig;
import io.rocelab.sw.config.SwitchConfig;

/**
 * A lab file's {@code load-balancing} (of the fabric, or of one switch) and the switch
 * configuration it stands for: static hashing, rocelab's queue-only flowlets
 * ({@code SWITCH|switch flowlet_timeout}), or an ARS object applied to every next-hop group
 * ({@code ARS_PROFILE ars_nhg_path_selector_mode global}) with SAI's assign mode
 * {@code per_flowlet_quality} or {@code per_packet_quality}.
 */
enum LoadBalancingMode {
    ECMP("ecmp"),
    FLOWLET("flowlet"),
    FLOWLET_QUALITY("flowlet-quality"),
    PER_PACKET("per-packet");

    private final String key;

    LoadBalancingMode(String key) {
        this.key = key;
    }

    /** @return the mode's name in a lab file */
    String key() {
        return key;
    }

    /** @return true if the mode moves flowlets (and so has an idle time) */
    boolean flowlets() {
        return this == FLOWLET || this == FLOWLET_QUALITY;
    }

    static LoadBalancingMode parse(String text) {
        for (LoadBalancingMode m : values()) {
            if (m.key.equals(text)) {
                return m;
            }
        }
        return null;
    }

    /** @return {@code c} balancing its ECMP groups this way, {@code idleNanos} the flowlets' idle time */
    SwitchConfig apply(SwitchConfig c, long idleNanos) {
        return switch (this) {
            case ECMP -> c.withFlowletTimeout(0).withArs(ArsConfig.NONE);
            case FLOWLET -> c.withFlowletTimeout(idleNanos).withArs(ArsConfig.NONE);
            case FLOWLET_QUALITY -> c.withFlowletTimeout(0).withArs(ArsConfig.global(new ArsConfig.ArsObject(key,
                ArsConfig.AssignMode.PER_FLOWLET_QUALITY, idleNanos, ArsConfig.ArsObject.DEFAULT_MAX_FLOWS, 0)));
            case PER_PACKET -> c.withFlowletTimeout(0).withArs(ArsConfig.global(new ArsConfig.ArsObject(key,
                ArsConfig.AssignMode.PER_PACKET_QUALITY, idleNanos, ArsConfig.ArsObject.DEFAULT_MAX_FLOWS, 0)));
        };
    }
}
