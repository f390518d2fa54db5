package io.rocelab.sw.lag;

import io.rocelab.sw.config.PortChannelConfig;
import io.rocelab.sw.config.SwitchConfig;
import java.util.List;

/**
 * A switch's port channels and the way from a port to the interface it is part of: a member port
 * is its port channel for learning, flooding and split horizon; every other port is itself.
 * Interfaces are numbered as {@link SwitchConfig#interfaceIndex} does: the ports, then the port
 * channels. Owner thread only.
 */
public final class PortChannels {
    private final int portCount;
    private final LagGroup[] groups;
    private final LagGroup[] groupOfPort;

    public PortChannels(SwitchConfig config) {
        this.portCount = config.ports().size();
        this.groupOfPort = new LagGroup[portCount];
        List<PortChannelConfig> channels = config.portChannels();
        this.groups = new LagGroup[channels.size()];
        for (int i = 0; i < groups.length; i++) {
            PortChannelConfig c = channels.get(i);
            int[] members = c.members().stream().mapToInt(config::portIndex).toArray();
            groups[i] = new LagGroup(c, portCount + i, members);
            for (int m : members) {
                groupOfPort[m] = groups[i];
            }
        }
    }

    /** @return whether the switch has no port channel */
    public boolean isEmpty() {
        return groups.length == 0;
    }

    /** @return ports and port channels */
    public int interfaceCount() {
        return portCount + groups.length;
    }

    /** @return the interface {@code port} belongs to: its port channel's, or its own number */
    public int interfaceOf(int port) {
        LagGroup g = groupOfPort[port];
        return g == null ? port : g.iface();
    }

    /** @return the port channel {@code port} is a member of, or null */
    public LagGroup groupOfPort(int port) {
        return groupOfPort[port];
    }

    /** @return the port channel with interface number {@code iface}, or null for a plain port */
    public LagGroup group(int iface) {
        return iface >= portCount ? groups[iface - portCount] : null;
    }

    /** @return the port channels, in configuration order */
    public List<LagGroup> groups() {
        return List.of(groups);
    }
}
