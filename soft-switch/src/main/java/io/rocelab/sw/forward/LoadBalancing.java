package io.rocelab.sw.forward;

import io.rocelab.sw.config.ArsConfig;
import io.rocelab.sw.config.SwitchConfig;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which {@link LoadBalancer} each of a switch's ECMP groups uses, and the switch's
 * {@link PathChanges}. Without ARS tables every group hashes statically, or runs queue-only
 * flowlets if {@code SWITCH|switch flowlet_timeout} is set. With them, as SONiC's Local ARS HLD
 * selects next-hop groups ({@code ARS_PROFILE ars_nhg_path_selector_mode}): in {@code global} mode
 * every group uses the profile's {@code default_ars_object}; in {@code interface} mode a group whose
 * members all leave by interfaces of {@code ARS_INTERFACES} naming one ARS object uses that object,
 * any other group keeps the switch's default. Each ARS object is one balancer (one flowlet table,
 * {@code SAI_ARS_ATTR_MAX_FLOWS} entries) shared by its groups, as one SAI ARS object is.
 *
 * <p>A group's balancer is chosen on its first routed packet and kept in the group (one field read
 * per packet), which covers groups a routing protocol installs later. Owner thread only.
 */
public final class LoadBalancing {
    private final LoadBalancer fallback;
    private final Map<Integer, LoadBalancer> byInterface = new HashMap<>();
    private final Map<String, LoadBalancer> byObject = new LinkedHashMap<>();
    private final PathChanges changes = new PathChanges();
    private final FlowletTable queueFlowlets;

    /**
     * @param config the switch's configuration: {@code flowlet_timeout}, {@code ecmp_hash_seed}, its ARS tables
     * @param ports  link state and load of its ports and port channels
     */
    public LoadBalancing(SwitchConfig config, PortView ports) {
        ArsConfig ars = config.ars();
        PortQuality quality = new PortQuality(ports, ars.profile());
        for (ArsConfig.ArsObject o : ars.objects().values()) {
            byObject.put(o.name(), switch (o.mode()) {
                case PER_FLOWLET_QUALITY -> FlowletBalancer.byQuality(o.idleTimeNanos(), o.maxFlows(), quality,
                    o.trafficClasses() == 0 ? 0xFF : o.trafficClasses(), ports, changes);
                case PER_PACKET_QUALITY -> new PerPacketBalancer(quality, o.trafficClasses(), config.ecmpHashSeed(),
                    ports, changes);
            });
        }
        ars.interfaces().forEach((name, object) -> {
            int iface = config.interfaceIndex(name);
            LoadBalancer b = byObject.get(object);
            if (iface >= 0 && b != null) {
                byInterface.put(iface, b);
            }
        });
        FlowletBalancer flowlets = config.flowletTimeoutNanos() > 0
            ? FlowletBalancer.queueOnly(config.flowletTimeoutNanos(), ports, changes) : null;
        queueFlowlets = flowlets == null ? null : flowlets.table();
        LoadBalancer global = ars.defaultObject() == null ? null : byObject.get(ars.defaultObject());
        fallback = global != null ? global : flowlets != null ? flowlets : new HashBalancer(ports);
    }

    /** @return the balancer of {@code group}, chosen on first use */
    public LoadBalancer of(EcmpGroup group) {
        LoadBalancer b = group.balancer;
        if (b == null) {
            b = resolve(group);
            group.balancer = b;
        }
        return b;
    }

    private LoadBalancer resolve(EcmpGroup group) {
        if (byInterface.isEmpty() || group.size() == 0) {
            return fallback;
        }
        LoadBalancer common = byInterface.get(group.port(0));
        for (int m = 1; m < group.size() && common != null; m++) {
            if (byInterface.get(group.port(m)) != common) {
                common = null;
            }
        }
        return common == null ? fallback : common;
    }

    /** @return the switch's path changes */
    public PathChanges changes() {
        return changes;
    }

    /** @return the queue-only flowlet table of {@code SWITCH|switch flowlet_timeout}, or null */
    public FlowletTable queueFlowlets() {
        return queueFlowlets;
    }
}
