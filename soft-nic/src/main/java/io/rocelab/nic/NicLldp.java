package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.LldpId;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.lldp.LldpNeighbor;

/**
 * LLDP on each port of a NIC (as lldpd or lldpad runs on a host's interfaces): an
 * {@link LldpAgent} per port whose LLDPDUs say chassis ID = the port's MAC, port ID = the same MAC
 * (subtype MAC address, as lldpd sends for a host's interface), system name = the host's name,
 * the port's IPv4 address as management address, capabilities station only, and the DCBX TLVs
 * the NIC's DCB settings advertise ({@code NicDcb.advertised}). What the link partner's LLDPDUs
 * carry of DCBX goes to {@code NicDcb.onPeer}; when it ages out or the link goes down,
 * {@code NicDcb.onPeerGone}. LLDP frames leave by the port's MAC control queue (never paused).
 * Owner thread only.
 */
public final class NicLldp {
    private final SoftNic nic;
    private final NicPort[] ports;
    private final LldpAgent[] agents;

    NicLldp(SoftNic nic, NicPort[] ports, String systemName) {
        this.nic = nic;
        this.ports = ports;
        this.agents = new LldpAgent[ports.length];
        for (NicPort p : ports) {
            Lldpdu base = new Lldpdu(LldpId.chassisMac(p.mac()), LldpId.portMac(p.mac()), LldpAgent.TTL_SECONDS,
                "rocelab port " + p.number(), systemName, "rocelab soft NIC",
                new Lldpdu.Capabilities(Lldpdu.Capabilities.STATION_ONLY, Lldpdu.Capabilities.STATION_ONLY),
                p.ipv4() == 0 ? null : new Lldpdu.ManagementAddress(p.ipv4(), p.number()), Dcbx.NONE);
            LldpAgent a = new LldpAgent(nic.agentScheduler(), nic.alloc(), p.mac(),
                () -> base.withDcbx(nic.dcb().advertised(p.number())), f -> p.egress.sendMacControl(f));
            a.setListener((agent, n) -> {
                if (n == null) {
                    nic.dcb().onPeerGone(p.number());
                } else {
                    nic.dcb().onPeer(p.number(), n.pdu().dcbx());
                }
            });
            agents[p.number() - 1] = a;
        }
    }

    /** Starts the agents on the ports that are up. */
    void start() {
        for (NicPort p : ports) {
            agents[p.number() - 1].linkStateChanged(p.isUp());
        }
    }

    void linkChanged(NicPort port, boolean up) {
        agents[port.number() - 1].linkStateChanged(up);
    }

    /** Takes an LLDP frame that arrived on {@code port}: true if it was one (the caller releases it). */
    boolean take(NicPort port, ByteBuf frame) {
        if (!Lldpdu.isLldp(frame)) {
            return false;
        }
        agents[port.number() - 1].receive(frame);
        return true;
    }

    /** The NIC closes: each port's shutdown LLDPDU, then silence. */
    void stop() {
        for (LldpAgent a : agents) {
            a.shutdown();
        }
    }

    /** What the DCB settings advertise changed on port {@code number}: an LLDPDU now. */
    public void localChanged(int number) {
        agents[number - 1].localChanged();
    }

    /** @return port {@code number}'s agent (1 or 2) */
    public LldpAgent agent(int number) {
        return agents[number - 1];
    }

    /** @return the neighbour on port {@code number}, or null */
    public LldpNeighbor neighbor(int number) {
        return agents[number - 1].neighbor();
    }

    /** @return how many ports */
    public int ports() {
        return agents.length;
    }
}
