package io.rocelab.topology.fabric;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
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
     * @param activeMtu              its NIC's active MTU: the host's, or less on a Linux interface that refuses it
     * @param linkSpeedBitsPerSecond the resolved line rate of its link
     * @param owner                  the NIC's owner (also its link port's)
     * @param port                   the NIC's end of its (first port's) link
     * @param port2                  a dual-port host's end of its second port's link, else null
     */
    static SoftNic build(Host host, int activeMtu, long linkSpeedBitsPerSecond, Scheduler owner, FramePort port, FramePort port2) {
        SoftNic.Builder b = SoftNic.builder().name(host.name()).mac(host.mac()).ipv4(host.ipv4())
            .activeMtu(activeMtu).scheduler(owner).port(port);
        host.ipv6().forEach(b::ipv6);
        if (host.vlanId() > 0) {
            b.vlan(host.vlanId(), host.pcp());
        }
        // the one place a host's NIC is configured: the line rate its transmitter paces to (and PFC's
        // quanta count at), the link's, how long it takes to act on a received pause, its DCB
        // settings (mlnx_qos's trust, PFC, DCBX) and its congestion control
        b.linkSpeedBitsPerSecond(linkSpeedBitsPerSecond);
        b.pauseResponse(host.pauseResponse());
        b.flowControl(host.flowControl());
        b.dcb(host.dcb());
        b.oooDataPlacement(host.oooDataPlacement());
        b.roceV1(host.roceV1());
        if (host.dcqcn() != null) {
            b.dcqcn(host.dcqcn());
        }
        if (host.bonded()) {
            b.bond(port2, host.port2().bond());
            b.lacpRate(host.port2().lacpFast() ? "fast" : "slow");
        } else if (host.port2() != null) {
            b.port2(port2, MacAddress.toString(host.port2().mac()), Ipv4.toString(host.port2().ipv4()));
        }
        return b.build();
    }
}
