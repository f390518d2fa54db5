package io.rocelab.perftest.nic;

import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.lldp.LldpNeighbor;
import io.rocelab.nic.NicLldp;

/**
 * The NIC's LLDP neighbours as the tools print them on stderr beside the counters, one line per
 * port: {@code rocelab0 lldp port 1: leaf Ethernet0 (local etp1, chassis mac 02:...), ttl 121,
 * dcbx pfc 3; lldp tx 5 rx 2 discarded 0 ageout 0}. Read on the NIC's owner thread.
 */
final class LldpLines {
    private LldpLines() {
    }

    static String of(String device, NicLldp lldp) {
        StringBuilder sb = new StringBuilder();
        for (int port = 1; port <= lldp.ports(); port++) {
            LldpAgent a = lldp.agent(port);
            LldpNeighbor n = a.neighbor();
            sb.append(' ').append(device).append(" lldp port ").append(port).append(": ");
            if (n == null) {
                sb.append("no neighbour");
            } else {
                var pdu = n.pdu();
                sb.append(pdu.systemName() == null ? "(no name)" : pdu.systemName())
                    .append(pdu.portDescription() == null ? "" : " " + pdu.portDescription())
                    .append(" (").append(pdu.portId().kind(false)).append(' ').append(pdu.portId().value())
                    .append(", chassis ").append(pdu.chassisId().kind(true)).append(' ').append(pdu.chassisId().value())
                    .append("), ttl ").append(pdu.ttl());
                if (pdu.dcbx().pfc() != null) {
                    sb.append(", dcbx pfc enable 0x").append(Integer.toHexString(pdu.dcbx().pfc().enableMask()));
                }
            }
            sb.append("; lldp tx ").append(a.framesOut()).append(" rx ").append(a.framesIn()).append(" discarded ")
                .append(a.framesDiscarded()).append(" ageout ").append(a.ageouts()).append('\n');
        }
        return sb.toString();
    }
}
