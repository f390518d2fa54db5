package io.rocelab.sw.lldp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.LldpId;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.fabric.lldp.LldpAgent;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.dcbx.SwitchDcbx;

/**
 * LLDP on every port of a switch (SONiC runs lldpd on every front-panel port): an
 * {@link LldpAgent} per port whose LLDPDUs say, as SONiC's do, chassis ID = the switch's MAC
 * (subtype MAC address), port ID = the port's alias or name (subtype locally assigned, lldpmgrd's
 * {@code portidsubtype local}), port description = its {@code description} or name, system name =
 * the hostname, system description SONiC's {@code SONiC Software Version: ... - HwSku: ...} line,
 * capabilities bridge and router (router enabled; bridge too on a switch with VLANs), the
 * management address when {@code MGMT_INTERFACE} has one, and the port's DCBX TLVs as
 * {@link SwitchDcbx#advertised} works them out (none when it gives {@link Dcbx#NONE}). LLDP frames
 * are the switch's own: trapped, never forwarded. Owner thread only.
 */
public final class SwitchLldp {
    /** Sends a frame out of a port, never paused (the switch's control queue). */
    public interface Sender {
        void send(int port, ByteBuf frame);
    }

    private final LldpAgent[] agents;

    public SwitchLldp(SwitchConfig config, LldpSettings settings, Scheduler scheduler, ByteBufAllocator alloc,
                      Sender sender) {
        int n = config.ports().size();
        agents = new LldpAgent[n];
        boolean bridge = config.ports().stream().anyMatch(p -> p.vlans() != null);
        int caps = Lldpdu.Capabilities.BRIDGE | Lldpdu.Capabilities.ROUTER;
        Lldpdu.Capabilities capabilities = new Lldpdu.Capabilities(caps,
            Lldpdu.Capabilities.ROUTER | (bridge ? Lldpdu.Capabilities.BRIDGE : 0));
        Lldpdu.ManagementAddress mgmt = settings.managementIpv4() == null ? null
            : new Lldpdu.ManagementAddress(ipv4(settings.managementIpv4()), 0);
        String description = "SONiC Software Version: SONiC.rocelab - HwSku: "
            + (settings.hwsku() == null ? "rocelab-soft-switch" : settings.hwsku())
            + " - Distribution: rocelab - Kernel: none";
        for (int i = 0; i < n; i++) {
            PortConfig pc = config.ports().get(i);
            int port = i;
            Lldpdu base = new Lldpdu(LldpId.chassisMac(config.routerMac()),
                LldpId.portLocal(settings.aliases().getOrDefault(pc.name(), pc.name())), LldpAgent.TTL_SECONDS,
                settings.descriptions().getOrDefault(pc.name(), pc.name()), config.hostname(), description,
                capabilities, mgmt, Dcbx.NONE);
            agents[i] = new LldpAgent(scheduler, alloc, config.routerMac(),
                () -> base.withDcbx(SwitchDcbx.advertised(pc)), f -> sender.send(port, f));
        }
    }

    private static int ipv4(String dotted) {
        int a = 0;
        for (String s : dotted.split("\\.")) {
            a = a << 8 | Integer.parseInt(s);
        }
        return a;
    }

    /** The port's link went up or down. */
    public void linkStateChanged(int port, boolean up) {
        agents[port].linkStateChanged(up);
    }

    /** An LLDP frame came in on {@code port}: its agent reads it (the caller releases the frame). */
    public void receive(int port, ByteBuf frame) {
        agents[port].receive(frame);
    }

    /** The port's DCBX advertisement changed: an LLDPDU now. */
    public void localChanged(int port) {
        agents[port].localChanged();
    }

    /** Every port sends its shutdown LLDPDU (TTL 0) and falls silent: the switch is stopping. */
    public void shutdown() {
        for (LldpAgent a : agents) {
            a.shutdown();
        }
    }

    /** @return the agent of {@code port} */
    public LldpAgent agent(int port) {
        return agents[port];
    }

    /** @return how many ports */
    public int ports() {
        return agents.length;
    }
}
