package io.rocelab.topology.model;

import io.rocelab.sw.config.SwitchConfigBuilder;
import java.util.List;
import java.util.Map;

/**
 * Fills in the {@code STATIC_ROUTE}s of the switches of a topology from its wiring, before their
 * configurations are checked and built. The route package implements it (static ECMP routes or
 * eBGP): the model calls it and knows nothing of how routes are found.
 */
@FunctionalInterface
public interface RouteFiller {
    /**
     * @param hosts      every host
     * @param routerMacs every switch's router MAC, by switch name
     * @param links      every link (their ends are known to exist)
     * @param tables     the switches whose configuration is still tables, by name: add routes to these
     */
    void fill(List<Host> hosts, Map<String, Long> routerMacs, List<Link> links, Map<String, SwitchConfigBuilder> tables);
}
