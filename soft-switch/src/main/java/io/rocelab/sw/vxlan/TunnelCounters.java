package io.rocelab.sw.vxlan;

/**
 * One tunnel's counters, as SAI counts them ({@code SAI_TUNNEL_STAT_IN_OCTETS},
 * {@code SAI_TUNNEL_STAT_IN_PACKETS}, {@code SAI_TUNNEL_STAT_OUT_OCTETS},
 * {@code SAI_TUNNEL_STAT_OUT_PACKETS}) and {@code show vxlan counters} (tunnelstat) prints them:
 * in = decapsulated, out = encapsulated, bytes of the whole VXLAN packet on the wire; with rocelab's
 * drops. Owner thread only; {@link #copy} for other threads.
 */
public final class TunnelCounters {
    public long rxPackets;
    public long rxBytes;
    public long txPackets;
    public long txBytes;
    /** Decapsulated packets dropped: an unmapped VNI, or RFC 6040's outer CE on a Not-ECT packet. */
    public long rxDrops;
    /** Packets to encapsulate that had no route to the remote VTEP. */
    public long txDrops;
    /** Inner packets marked CE at decapsulation because the underlay marked the outer (RFC 6040). */
    public long ceMarked;

    /** @return a copy, to be read elsewhere */
    public TunnelCounters copy() {
        TunnelCounters c = new TunnelCounters();
        c.rxPackets = rxPackets;
        c.rxBytes = rxBytes;
        c.txPackets = txPackets;
        c.txBytes = txBytes;
        c.rxDrops = rxDrops;
        c.txDrops = txDrops;
        c.ceMarked = ceMarked;
        return c;
    }

    void add(TunnelCounters o) {
        rxPackets += o.rxPackets;
        rxBytes += o.rxBytes;
        txPackets += o.txPackets;
        txBytes += o.txBytes;
        rxDrops += o.rxDrops;
        txDrops += o.txDrops;
        ceMarked += o.ceMarked;
    }
}
