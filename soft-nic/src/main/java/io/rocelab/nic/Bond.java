package io.rocelab.nic;

import io.rocelab.codec.header.Udp;

/**
 * A NIC's two ports bonded into one (RoCE LAG, what ConnectX does when both its netdevs are in a
 * Linux bond): both ports carry port 1's MAC, addresses and GIDs; each QP's frames leave by the
 * port its {@link BondMode} picks ({@link #portFor}); a port whose link goes down hands its QPs to
 * the other without an error completion, and the transport's retries resend what was in flight on
 * it. Frames are taken from either port. Owner thread.
 */
public final class Bond {
    private final BondMode mode;
    private final NicPort[] ports;
    /** The active port of {@link BondMode#ACTIVE_BACKUP}. */
    private NicPort active;
    private long failovers;

    Bond(BondMode mode, NicPort[] ports) {
        if (ports.length != 2) {
            throw new IllegalArgumentException("a bond needs two ports, not " + ports.length);
        }
        this.mode = mode;
        this.ports = ports;
        this.active = ports[0].isUp() || !ports[1].isUp() ? ports[0] : ports[1];
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
        return hashed.isUp() ? hashed : other(hashed);
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
        Route r = qp.route;
        int src = r == null ? 0 : r.ipv6 ? lastWord(r.srcGid) : r.srcIpv4;
        int dst = r == null ? 0 : r.ipv6 ? lastWord(r.dstGid) : r.dstIpv4;
        return Integer.remainderUnsigned(hash(src, dst, qp.srcPort, Udp.ROCEV2_PORT), 2);
    }

    private static int lastWord(Gid g) {
        byte[] b = g.rawBytes();
        return (b[12] & 0xFF) << 24 | (b[13] & 0xFF) << 16 | (b[14] & 0xFF) << 8 | b[15] & 0xFF;
    }

    private NicPort other(NicPort p) {
        return p == ports[0] ? ports[1] : ports[0];
    }

    /** A port's link changed: the QPs go where the mode now puts them. */
    void linkChanged(NicPort port, boolean up, Iterable<QueuePair> qps) {
        if (mode == BondMode.ACTIVE_BACKUP && !up && port == active && other(port).isUp()) {
            active = other(port);
        }
        if (mode == BondMode.ACTIVE_BACKUP && up && !active.isUp()) {
            active = port;
        }
        for (QueuePair qp : qps) {
            NicPort to = portFor(qp);
            if (qp.port != to) {
                if (!up && qp.port == port) {
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
