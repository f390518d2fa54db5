package io.rocelab.sw.config;

import static io.rocelab.sw.config.ConfigFields.number;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The config_db tables of adaptive routing and switching, as SONiC's Local ARS HLD
 * (sonic-net/SONiC doc/ARS/Local_ARS_HLD.md, "Config DB Enhancements") defines them and its
 * arsorch programs them into SAI (saiarsprofile.h, saiars.h):
 * <ul>
 *   <li>{@code ARS_PROFILE|name}: {@code algorithm} (ewma), {@code ars_nhg_path_selector_mode}
 *       ({@code global}: every next-hop group uses {@code default_ars_object}; {@code interface}, the
 *       default: groups over {@code ARS_INTERFACES}), {@code sampling_interval} (µs),
 *       {@code past_load_min_value}, {@code past_load_max_value}, {@code past_load_weight},
 *       {@code future_load_min_value}, {@code future_load_max_value}, {@code future_load_weight}
 *       (units: {@link ArsConfig.Profile}); one profile per switch, as SAI has one;</li>
 *   <li>{@code ARS_OBJECT|name}: {@code assign_mode} ({@code per_flowlet_quality}, {@code per_packet_quality}),
 *       {@code flowlet_idle_time} (µs), {@code max_flows}, and rocelab's own {@code traffic_class} (which
 *       TCs are adaptive, as {@code pfc_enable} lists them; SONiC excludes traffic with an ACL instead);</li>
 *   <li>{@code ARS_INTERFACES|port}: {@code ars_obj_name} (the profile's {@code default_ars_object} if absent).</li>
 * </ul>
 * Accepted but not modelled (noted): the LAG selector, the current load, alternative paths
 * ({@code primary_path_threshold}, {@code alternative_path_cost}), {@code scaling_factor}, and IPv4 or IPv6
 * turned off. {@code ARS_NEXTHOPS} (selector mode {@code nexthop}) is not modelled: a mistake.
 */
public final class ArsTables {
    private static final Set<String> PROFILE_FIELDS = Set.of("algorithm", "ars_nhg_path_selector_mode",
        "ars_lag_path_selector_mode", "default_ars_object", "max_flows", "sampling_interval", "past_load_min_value",
        "past_load_max_value", "past_load_weight", "future_load_min_value", "future_load_max_value",
        "future_load_weight", "current_load_min_value", "current_load_max_value", "ipv4_enable", "ipv6_enable");
    private static final Set<String> PROFILE_UNMODELLED = Set.of("ars_lag_path_selector_mode", "max_flows",
        "current_load_min_value", "current_load_max_value");
    private static final Set<String> OBJECT_FIELDS = Set.of("assign_mode", "flowlet_idle_time", "max_flows",
        "primary_path_threshold", "alternative_path_cost", "traffic_class");
    private static final Set<String> OBJECT_UNMODELLED = Set.of("primary_path_threshold", "alternative_path_cost");
    private static final Set<String> INTERFACE_FIELDS = Set.of("ars_obj_name", "scaling_factor");
    /** The tables, for {@link SonicTables}. */
    static final List<String> TABLES = List.of("ARS_PROFILE", "ARS_OBJECT", "ARS_INTERFACES");

    private ArsTables() {
    }

    /**
     * Reads the ARS tables of {@code root}.
     *
     * @param problems one line per mistake, naming TABLE|key
     * @param notes    one line per thing accepted but not acted on
     * @return the configuration, {@link ArsConfig#NONE} if the file has no ARS object
     */
    public static ArsConfig read(JsonNode root, List<String> problems, Collection<String> notes) {
        if (root.has("ARS_NEXTHOPS")) {
            problems.add("ARS_NEXTHOPS: selecting ARS next-hop groups by next hop is not modelled: use "
                + "ARS_PROFILE ars_nhg_path_selector_mode global or interface (ARS_INTERFACES)");
        }
        ArsConfig.Profile profile = ArsConfig.Profile.DEFAULT;
        String selector = "interface";
        String defaultObject = null;
        JsonNode profiles = root.path("ARS_PROFILE");
        if (profiles.size() > 1) {
            problems.add("ARS_PROFILE: one profile per switch (SAI has one ARS profile), not " + profiles.size());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = profiles.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "ARS_PROFILE|" + e.getKey();
            JsonNode p = e.getValue();
            fields(where, p, PROFILE_FIELDS, PROFILE_UNMODELLED, "ARS_PROFILE", problems, notes);
            String algorithm = p.path("algorithm").asText("ewma");
            if (!algorithm.equals("ewma")) {
                problems.add(where + ": algorithm must be 'ewma' (SAI_ARS_PROFILE_ALGO_EWMA), not '" + algorithm + "'");
            }
            selector = p.path("ars_nhg_path_selector_mode").asText("interface");
            if (!selector.equals("global") && !selector.equals("interface")) {
                problems.add(where + ": ars_nhg_path_selector_mode must be 'global' or 'interface', not '" + selector
                    + "'" + (selector.equals("nexthop") ? " (ARS_NEXTHOPS is not modelled)" : ""));
            }
            defaultObject = p.has("default_ars_object") ? p.get("default_ars_object").asText() : null;
            if (selector.equals("global") && defaultObject == null) {
                problems.add(where + ": ars_nhg_path_selector_mode global needs default_ars_object, the ARS_OBJECT of "
                    + "every next-hop group");
            }
            ArsConfig.Profile d = ArsConfig.Profile.DEFAULT;
            long sampling = number(problems, where, p, "sampling_interval",
                ArsConfig.Profile.DEFAULT_SAMPLING_MICROS, 1, 1_000_000);
            long pastMin = number(problems, where, p, "past_load_min_value", d.pastLoadMin(), 0, 100);
            long pastMax = number(problems, where, p, "past_load_max_value", d.pastLoadMax(), 0, 100);
            long pastWeight = number(problems, where, p, "past_load_weight", d.pastLoadWeight(), 0, 65535);
            long futureMin = number(problems, where, p, "future_load_min_value",
                d.futureLoadMinBytes() / 1024, 0, 65535);
            long futureMax = number(problems, where, p, "future_load_max_value",
                d.futureLoadMaxBytes() / 1024, 0, 65535);
            long futureWeight = number(problems, where, p, "future_load_weight", d.futureLoadWeight(), 0, 65535);
            if (pastMax <= pastMin) {
                problems.add(where + ": past_load_max_value " + pastMax + " must be above past_load_min_value " + pastMin);
            }
            if (futureMax <= futureMin) {
                problems.add(where + ": future_load_max_value " + futureMax + " must be above future_load_min_value "
                    + futureMin);
            }
            if (pastWeight + futureWeight == 0) {
                problems.add(where + ": past_load_weight and future_load_weight are both 0: no load would count");
            }
            for (String f : List.of("ipv4_enable", "ipv6_enable")) {
                if (p.has(f) && !p.get(f).asText().equals("true")) {
                    notes.add("ARS_PROFILE " + f + " " + p.get(f).asText() + " (ARS applies to IPv4 and IPv6)");
                }
            }
            profile = new ArsConfig.Profile(e.getKey(), sampling * 1_000, (int) pastMin, (int) pastMax, (int) pastWeight,
                futureMin * 1024, futureMax * 1024, (int) futureWeight, true, true);
        }
        Map<String, ArsConfig.ArsObject> objects = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("ARS_OBJECT").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "ARS_OBJECT|" + e.getKey();
            JsonNode o = e.getValue();
            fields(where, o, OBJECT_FIELDS, OBJECT_UNMODELLED, "ARS_OBJECT", problems, notes);
            String text = o.path("assign_mode").asText(ArsConfig.AssignMode.PER_FLOWLET_QUALITY.sonicName());
            ArsConfig.AssignMode mode = ArsConfig.AssignMode.parse(text);
            if (mode == null) {
                problems.add(where + ": assign_mode must be per_flowlet_quality or per_packet_quality, not '" + text + "'");
                mode = ArsConfig.AssignMode.PER_FLOWLET_QUALITY;
            }
            long idle = number(problems, where, o, "flowlet_idle_time",
                ArsConfig.ArsObject.DEFAULT_IDLE_MICROS, 1, 10_000_000);
            long maxFlows = number(problems, where, o, "max_flows", ArsConfig.ArsObject.DEFAULT_MAX_FLOWS, 1, 1 << 20);
            int classes = o.has("traffic_class") ? trafficClasses(where, o.get("traffic_class").asText(), problems) : 0;
            objects.put(e.getKey(), new ArsConfig.ArsObject(e.getKey(), mode, idle * 1_000, (int) maxFlows, classes));
        }
        if (defaultObject != null && !objects.containsKey(defaultObject)) {
            problems.add("ARS_PROFILE|" + profile.name() + ": default_ars_object '" + defaultObject
                + "' is not in ARS_OBJECT");
        }
        Map<String, String> interfaces = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("ARS_INTERFACES").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String where = "ARS_INTERFACES|" + e.getKey();
            JsonNode i = e.getValue();
            fields(where, i, INTERFACE_FIELDS, Set.of("scaling_factor"), "ARS_INTERFACES", problems, notes);
            if (!root.path("PORT").has(e.getKey()) && !root.path("PORTCHANNEL").has(e.getKey())) {
                problems.add(where + ": '" + e.getKey() + "' is not a port or a port channel (PORT, PORTCHANNEL)");
            }
            String object = i.has("ars_obj_name") ? i.get("ars_obj_name").asText() : defaultObject;
            if (object == null) {
                problems.add(where + ": no ars_obj_name, and ARS_PROFILE has no default_ars_object to inherit");
            } else if (!objects.containsKey(object)) {
                problems.add(where + ": ars_obj_name '" + object + "' is not in ARS_OBJECT");
            } else {
                interfaces.put(e.getKey(), object);
            }
        }
        if (objects.isEmpty()) {
            return ArsConfig.NONE;
        }
        return new ArsConfig(profile, objects, interfaces, selector.equals("global") ? defaultObject : null);
    }

    /** {@code "3,4"} (as {@code pfc_enable}): a bit per traffic class. */
    private static int trafficClasses(String where, String text, List<String> problems) {
        int mask = 0;
        for (String t : text.split(",")) {
            String s = t.trim();
            if (!s.matches("[0-7]")) {
                problems.add(where + ": traffic_class must list traffic classes 0-7 like \"3,4\", not '" + text + "'");
                return 0;
            }
            mask |= 1 << Integer.parseInt(s);
        }
        return mask;
    }

    private static void fields(String where, JsonNode e, Set<String> known, Set<String> unmodelled, String table,
                               List<String> problems, Collection<String> notes) {
        if (!e.isObject()) {
            problems.add(where + ": must be an object of fields");
            return;
        }
        e.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                problems.add(where + ": unknown field '" + f + "'");
            } else if (unmodelled.contains(f)) {
                notes.add(table + " " + f);
            }
        });
    }
}
