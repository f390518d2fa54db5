package io.rocelab.topology.model;

import io.rocelab.sw.config.SwitchConfig;
import java.util.Objects;

/**
 * A soft switch and its SONiC-shaped configuration; its ports are the configuration's {@code PORT}s.
 *
 * @param name   unique node name (the switch's hostname need not be the same)
 * @param config the validated configuration
 */
public record SwitchNode(String name, SwitchConfig config) implements Node {
    public SwitchNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(config, "config");
    }

    @Override
    public boolean hasPort(String port) {
        return config.portIndex(port) >= 0;
    }

    /** @return the line rate of {@code port}, or 0 if there is no such port */
    public long portSpeedBitsPerSecond(String port) {
        int i = config.portIndex(port);
        return i < 0 ? 0 : config.ports().get(i).speedBitsPerSecond();
    }

    /** @return the router MAC: where a host sends what the switch routes */
    public long routerMac() {
        return config.routerMac();
    }

    /** @return whether the switch routes (has static routes), rather than only bridging */
    public boolean routes() {
        return !config.routes().isEmpty() || !config.routes6().isEmpty();
    }
}
