package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Lacpdu;
import io.rocelab.codec.header.Udp;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.fabric.lag.LacpAggregator;
import io.rocelab.fabric.lag.LacpSettings;
import io.rocelab.nic.net.Gid;

/**
 * A NIC's two ports bonded into one (RoCE LAG, what ConnectX does when both its netdevs are in a
 * Linux bond): both ports carry port 1's MAC, addresses and GIDs; each QP's frames leave by the
 * port its {@link BondMode} picks ({@link #portFor}); a port whose link goes down hands its QPs to
 * the other without an error completion, and the transport's retries resend what was in flight on
 * it. Frames are taken from either port. In {@link BondMode#LACP} each port runs LACP with its
 * link partner ({@link LacpActor}, one {@link LacpAggregator}), and only distributing ports carry
 * QPs. Owner thread.
 */
public final class Bond {
    /** The operational key of the bond's LACP ports (any value the two share). */
    static final int LACP_KEY = 1;

    private final BondMode mode;
    private final NicPort[] ports;
    /** Port n's LACP actor at n - 1 ({@link BondMode#LACP}), else null. */
    private final LacpActor[] actors;
    private final LacpAggregator aggregator;
    /** The NIC's QPs, which a change of the distributing ports moves. */
    private final java.util.function.Supplier<Iterable<QueuePair>> qps;
    /** The active port of {@link BondMode#ACTIVE_BACKUP}. */
    private NicPort active;
    private long failovers;

    /**
     * @param lacpFast LACP's short timeout (Linux's {@code lacp_rate=fast}: an LACPDU every second,
     *                 a silent partner out after 3 s) instead of the long one (30 s, 90 s)
     */
    Bond(BondMode mode, NicPort[] ports, SoftNic nic, boolean lacpFast,
         java.util.function.Supplier<Iterable<QueuePair>> qps) {
        if (ports.length != 2) {
            throw new IllegalArgumentException("a bond needs two ports, not " + ports.length);
        }
        this.mode = mode;
        this.ports = ports;
        this.qps = qps;
        this.active = ports[0].isUp() || !ports[1].isUp() ? ports[0] : ports[1];
        if (mode != BondMode.LACP) {
            actors = null;
            aggregator = null;
            return;
        }
        actors = new LacpActor[ports.length];
        aggregator = new LacpAggregator(false);
        for (NicPort p : ports) {
            LacpSettings settings = new LacpSettings(LacpSettings.DEFAULT_SYSTEM_PRIORITY, ports[0].mac(), LACP_KEY,
                    LacpSettings.DEFAULT_PORT_PRIORITY, p.number(), lacpFast, true);
            LacpActor a = new LacpActor(nic.agentScheduler(), settings, p.mac(), nic.alloc(),
                    frame -> p.egress.sendMacControl(frame));
            a.setListener(x -> rebalance(null));
            actors[p.number() - 1] = a;
        }
    }

    /** Starts LACP on the ports that are up (once the NIC is built). */
    void start() {
        if (actors == null) {
            return;
        }
        for (int i = 0; i < actors.length; i++) {
            aggregator.add(actors[i]);
            actors[i].linkStateChanged(ports[i].isUp());
        }
    }

    /** Stops LACP (the NIC closes): the actors see their ports disabled, their timers end. */
    void stop() {
        if (actors != null) {
            for (LacpActor a : actors) {
                a.linkStateChanged(false);
            }
        }
    }

    /** Port {@code number}'s LACP actor, or null when the bond runs no LACP. */
    public LacpActor lacp(int number) {
        return actors == null ? null : actors[number - 1];
    }

    /**
     * Takes an LACPDU that arrived on {@code port} (an untagged Slow Protocols frame of subtype
     * LACP): true if it was one and the bond runs LACP.
     */
    boolean takeLacp(NicPort port, ByteBuf frame) {
        if (actors == null || !Lacpdu.isLacp(frame)) {
            return false;
        }
        actors[port.number() - 1].receive(Lacpdu.ofFrame(frame));
        return true;
    }

    /** Whether {@code p} may carry QPs now: its link is up and, with LACP, it is distributing. */
    private boolean usable(NicPort p) {
        return p.isUp() && (actors == null || actors[p.number() - 1].distributing());
    }

    public BondMode mode() {
        return mode;
    }

    /** The active port's number (active-backup), or 0 for a hashing mode. Any thread (a snapshot). */
    public int activePort() {
        return mode == BondMode.ACTIVE_BACKUP ? active.number() : 0;
    }

    /** How many times QPs were moved off a port whose link went down. */
    public long failovers() {
        return failovers;
    }

    /** The port a connected QP's frames leave by now. */
    NicPort portFor(QueuePair qp) {
        if (mode == BondMode.ACTIVE_BACKUP) {
            return active;
        }
        NicPort hashed = ports[hashIndex(qp)];
        if (usable(hashed)) {
            return hashed;
        }
        if (usable(other(hashed))) {
            return other(hashed);
        }
        // nothing distributes (LACP not converged): the hash among the ports that are up
        return hashed.isUp() || !other(hashed).isUp() ? hashed : other(hashed);
    }

    /**
     * The bonding driver's {@code layer3+4} transmit hash ({@code bond_xmit_hash}) of a QP's flow:
     * the UDP ports folded, XOR the IPv4 addresses (or the last words of the IPv6 ones), folded
     * again, modulo the two ports.
     */
    static int hash(int srcIp, int dstIp, int srcPort, int dstPort) {
        int h = (srcPort << 16 | dstPort) ^ srcIp ^ dstIp;
        h ^= h >>> 16;
        h ^= h >>> 8;
        return h;
    }

    private int hashIndex(QueuePair qp) {
        Route r = qp.route();
        int src = r == null ? 0 : r.ipv6 ? lastWord(r.srcGid) : r.srcIpv4;
        int dst = r == null ? 0 : r.ipv6 ? lastWord(r.dstGid) : r.dstIpv4;
        return Integer.remainderUnsigned(hash(src, dst, qp.udpSourcePort(), Udp.ROCEV2_PORT), 2);
    }

    private static int lastWord(Gid g) {
        byte[] b = g.rawBytes();
        return (b[12] & 0xFF) << 24 | (b[13] & 0xFF) << 16 | (b[14] & 0xFF) << 8 | b[15] & 0xFF;
    }

    private NicPort other(NicPort p) {
        return p == ports[0] ? ports[1] : ports[0];
    }

    /** A port's link changed: the QPs go where the mode now puts them. */
    void linkChanged(NicPort port, boolean up) {
        if (mode == BondMode.ACTIVE_BACKUP && !up && port == active && other(port).isUp()) {
            active = other(port);
        }
        if (mode == BondMode.ACTIVE_BACKUP && up && !active.isUp()) {
            active = port;
        }
        if (actors != null) {
            actors[port.number() - 1].linkStateChanged(up); // its listener rebalances
        }
        rebalance(up ? null : port);
    }

    /** Moves every QP to the port the mode puts it on now; {@code down}: a port that just went down. */
    private void rebalance(NicPort down) {
        for (QueuePair qp : qps.get()) {
            NicPort to = portFor(qp);
            if (qp.port() != to) {
                if (qp.port() == down || !usable(qp.port())) {
                    failovers++;
                }
                qp.moveTo(to);
            }
        }
    }

    @Override
    public String toString() {
        return "bond " + mode.configName() + (mode == BondMode.ACTIVE_BACKUP ? " active port " + active.number() : "");
    }
}
