package io.rocelab.topology.fabric;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.SoftNic;
import io.rocelab.topology.model.Host;

/** Makes a host's soft NIC from the topology's description of its port. */
final class HostNics {
    private HostNics() {
    }

    /**
     * @param host                   the host
     * @param linkSpeedBitsPerSecond the resolved line rate of its link
     * @param owner                  the NIC's owner (also its link port's)
     * @param port                   the NIC's end of its link
     */
    static SoftNic build(Host host, long linkSpeedBitsPerSecond, Scheduler owner, FramePort port) {
        SoftNic.Builder b = SoftNic.builder().name(host.name()).mac(host.mac()).ipv4(host.ipv4())
            .activeMtu(host.activeMtu()).scheduler(owner).port(port);
        host.ipv6().forEach(b::ipv6);
        if (host.vlanId() > 0) {
            b.vlan(host.vlanId(), host.pcp());
        }
        // the one place a host's NIC is configured: the line rate its transmitter paces to (and PFC's
        // quanta count at), the link's, and its congestion control
        b.linkSpeedBitsPerSecond(linkSpeedBitsPerSecond);
        if (host.dcqcn() != null) {
            b.dcqcn(host.dcqcn());
        }
        return b.build();
    }
}
