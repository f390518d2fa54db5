package io.rocelab.sw.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Adaptive routing and switching (ARS) of a switch's ECMP groups, as SONiC's Local ARS HLD
 * (sonic-net/SONiC doc/ARS/Local_ARS_HLD.md) puts it in config_db and SAI programs it
 * (saiars.h, saiarsprofile.h): one {@code ARS_PROFILE} (how a port's quality is measured), named
 * {@code ARS_OBJECT}s (how a group's members are (re)assigned: per flowlet or per packet, by
 * quality) and {@code ARS_INTERFACES} (which ports' next-hop groups use which object). Read by
 * {@link ArsTables}; {@link #NONE} when the file has no ARS tables (then {@code SWITCH|switch
 * flowlet_timeout} alone decides between static hashing and queue-only flowlets, as before).
 *
 * @param profile       {@code ARS_PROFILE}, or the defaults if the file gives objects but no profile
 * @param objects       {@code ARS_OBJECT} by name, in file order
 * @param interfaces    {@code ARS_INTERFACES}: interface name to the name of its ARS object
 * @param defaultObject {@code ARS_PROFILE default_ars_object} with {@code ars_nhg_path_selector_mode global}:
 *                      the object of every next-hop group; null in {@code interface} mode
 */
public record ArsConfig(Profile profile, Map<String, ArsObject> objects, Map<String, String> interfaces,
                        String defaultObject) {

    /** No ARS tables. */
    public static final ArsConfig NONE = new ArsConfig(Profile.DEFAULT, Map.of(), Map.of(), null);

    public ArsConfig {
        Objects.requireNonNull(profile, "profile");
        objects = Collections.unmodifiableMap(new LinkedHashMap<>(objects));
        interfaces = Collections.unmodifiableMap(new LinkedHashMap<>(interfaces));
    }

    /** @return true if the configuration has no ARS object: no group is adaptive */
    public boolean isEmpty() {
        return objects.isEmpty();
    }

    /**
     * Every next-hop group with one ARS object, all the rest of the profile at its defaults
     * ({@code ars_nhg_path_selector_mode global}): what a lab file's {@code load-balancing} asks.
     */
    public static ArsConfig global(ArsObject object) {
        return new ArsConfig(Profile.DEFAULT, Map.of(object.name(), object), Map.of(), object.name());
    }

    /**
     * How a member is (re)assigned: SAI's {@code sai_ars_mode_t}, SONiC's {@code ARS_OBJECT assign_mode}.
     */
    public enum AssignMode {
        /** {@code SAI_ARS_MODE_FLOWLET_QUALITY}, {@code per_flowlet_quality}: a flowlet goes to the best-quality member. */
        PER_FLOWLET_QUALITY("per_flowlet_quality"),
        /** {@code SAI_ARS_MODE_PER_PACKET_QUALITY}, {@code per_packet_quality}: each packet to the best-quality member. */
        PER_PACKET_QUALITY("per_packet_quality");

        private final String sonicName;

        AssignMode(String sonicName) {
            this.sonicName = sonicName;
        }

        /** @return the name in config_db */
        public String sonicName() {
            return sonicName;
        }

        /** @return the mode named so in config_db, or null */
        public static AssignMode parse(String text) {
            for (AssignMode m : values()) {
                if (m.sonicName.equals(text)) {
                    return m;
                }
            }
            return null;
        }
    }

    /**
     * {@code ARS_PROFILE|name}: how a port's quality is measured (SAI_ARS_PROFILE_ATTR_*, algorithm
     * EWMA). The past load is the EWMA of the bytes a port sent per sampling interval, as a percentage of
     * its line rate; the future load its queued bytes. Each is quantised into eight bands (0-7,
     * {@code SAI_ARS_PROFILE_ATTR_QUANT_BANDS}) between its min and max value, and the two bands weighed into
     * the port's quality band (0 the best). The units of the min and max values are rocelab's (SAI and the
     * HLD give none): percent of line rate for the past load, KB queued for the future load.
     *
     * @param name                  the profile's name (SONiC's example: {@code ars_profile_default})
     * @param samplingIntervalNanos {@code sampling_interval} (µs in the file; SAI's default 16)
     * @param pastLoadMin           {@code past_load_min_value}, percent of line rate (default 0)
     * @param pastLoadMax           {@code past_load_max_value}, percent of line rate (default 100)
     * @param pastLoadWeight        {@code past_load_weight}: weight of the past-load band in the quality (default 1)
     * @param futureLoadMinBytes    {@code future_load_min_value} (KB in the file; default 0)
     * @param futureLoadMaxBytes    {@code future_load_max_value} (KB in the file; default 64)
     * @param futureLoadWeight      {@code future_load_weight}: weight of the future-load band (default 1)
     * @param ipv4                  {@code ipv4_enable} (default true)
     * @param ipv6                  {@code ipv6_enable} (default true)
     */
    public record Profile(String name, long samplingIntervalNanos, int pastLoadMin, int pastLoadMax,
                          int pastLoadWeight, long futureLoadMinBytes, long futureLoadMaxBytes, int futureLoadWeight,
                          boolean ipv4, boolean ipv6) {
        /** SAI_ARS_PROFILE_ATTR_SAMPLING_INTERVAL's default, µs. */
        public static final long DEFAULT_SAMPLING_MICROS = 16;
        /** rocelab's defaults where SAI's are 0 (left to the ASIC). */
        public static final Profile DEFAULT = new Profile("default", DEFAULT_SAMPLING_MICROS * 1_000, 0, 100, 1, 0,
            64 * 1024, 1, true, true);
    }

    /**
     * {@code ARS_OBJECT|name}: the (re)assignment of a next-hop group's members (SAI_ARS_ATTR_*).
     *
     * @param name           the object's name
     * @param mode           {@code assign_mode}
     * @param idleTimeNanos  {@code flowlet_idle_time} (µs in the file; SAI_ARS_ATTR_IDLE_TIME's default 256): the
     *                       gap after which a flow's next packet starts a new flowlet
     * @param maxFlows       {@code max_flows} (SAI_ARS_ATTR_MAX_FLOWS, default 512): the flowlet table's entries
     * @param trafficClasses rocelab's {@code ARS_OBJECT traffic_class} (as {@code pfc_enable}, "3,4"): bit t set if
     *                       packets of TC t are adaptive, the others keep their hash; 0 = the default: every class
     *                       per flowlet, the lossless classes per packet (as Spectrum-X sprays RoCE only)
     */
    public record ArsObject(String name, AssignMode mode, long idleTimeNanos, int maxFlows, int trafficClasses) {
        /** SAI_ARS_ATTR_IDLE_TIME's default, µs. */
        public static final long DEFAULT_IDLE_MICROS = 256;
        /** SAI_ARS_ATTR_MAX_FLOWS's default. */
        public static final int DEFAULT_MAX_FLOWS = 512;

        public ArsObject {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(mode, "mode");
        }
    }
}
