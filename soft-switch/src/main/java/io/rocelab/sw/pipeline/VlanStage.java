package io.rocelab.sw.pipeline;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Vlan;
import io.rocelab.sw.config.Color;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.VlanMembership;

/**
 * VLAN membership and egress tagging (IEEE 802.1Q), for the ports that are in some VLAN (SONiC
 * {@code VLAN_MEMBER}); ports in no VLAN stay VLAN-unaware and bridge among themselves as before.
 *
 * <ul>
 *   <li>Ingress: a frame's VLAN is the VID of its outer tag, or the port's PVID (its untagged
 *       VLAN) if it is untagged or priority-tagged (VID 0). A frame of a VLAN the port is not a
 *       member of is dropped and counted (ingress filtering, 802.1Q 8.6.2).</li>
 *   <li>Forwarding: a bridged frame only leaves through members of its VLAN (egress filtering,
 *       802.1Q 8.6.4); the FDB learns per VLAN (independent VLAN learning, 802.1Q 8.8.8).</li>
 *   <li>Egress tagging: a bridged frame leaves a tagged member with a tag carrying its VID and an
 *       untagged member without one (802.1Q 8.1.7 member set, untagged set).</li>
 *   <li>PCP: a frame leaving tagged through a port with a {@code tc_to_dot1p_map} gets the PCP of
 *       its traffic class (SONiC {@code TC_TO_DOT1P_MAP}), so the next hop classifies it as this
 *       switch did. A tag pushed here gets that PCP, or the TC itself when no map is bound, and
 *       DEI set for a packet that is not green (802.1Q 6.9.3).</li>
 * </ul>
 *
 * <p>Routed frames (to the router MAC) pass the ingress filter like any frame, but are neither
 * filtered nor re-tagged on egress (routing through VLAN interfaces is not modelled): they keep
 * the tag they came with, and only the PCP rewrite applies to them.
 *
 * <p>Tag removal shifts the 12 MAC bytes over the tag in place; a push uses the 4 bytes before
 * the frame when there are any, else copies the frame into a buffer 4 bytes longer. Offsets in
 * the context are buffer indices past the MACs, so they stay right (a copy moves them by its
 * own shift). Owner thread only.
 */
public final class VlanStage {
    /** Context value of {@link PacketContext#vid} for a frame of a VLAN-unaware port. */
    public static final int UNAWARE = -1;
    private static final int MACS = 12;

    private final ByteBufAllocator alloc;
    /** Per port, its {@code vlans()} and {@code tcToDot1p()}, read on every frame without a call. */
    private final VlanMembership[] memberships;
    private final int[][] pcpMaps;

    /**
     * @param ports per-port configuration, indexed like the switch's ports
     * @param alloc allocator for the frames a pushed tag no longer fits in
     */
    public VlanStage(PortConfig[] ports, ByteBufAllocator alloc) {
        this.alloc = alloc;
        this.memberships = new VlanMembership[ports.length];
        this.pcpMaps = new int[ports.length][];
        for (int i = 0; i < ports.length; i++) {
            memberships[i] = ports[i].vlans();
            pcpMaps[i] = ports[i].tcToDot1p();
        }
    }

    /**
     * Finds the frame's VLAN ({@link PacketContext#vid}).
     *
     * @return false if the ingress port is not a member of it (the frame is to be dropped)
     */
    public boolean ingress(PacketContext ctx) {
        VlanMembership m = memberships[ctx.ingressPort];
        if (m == null) {
            ctx.vid = UNAWARE;
            return true;
        }
        int outer = outerTag(ctx.frame);
        int vid = outer >= 0 ? Vlan.vid(ctx.frame, outer) : 0;
        if (vid == 0) {
            vid = m.pvid();
        }
        if (vid == VlanMembership.NONE || !m.isMember(vid)) {
            return false;
        }
        ctx.vid = vid;
        return true;
    }

    /**
     * Egress filtering of flooded frames. A unicast needs no check: the FDB learns per VLAN, so
     * the port it names was a member of the frame's VLAN when it learned the address.
     *
     * @return true if a bridged frame of {@code ctx}'s VLAN may leave through {@code port}
     */
    public boolean mayLeave(PacketContext ctx, int port) {
        VlanMembership m = memberships[port];
        return ctx.vid == UNAWARE ? m == null : m != null && m.isMember(ctx.vid);
    }

    /** Tags, untags and sets the PCP of the frame for its egress port, before it is queued. */
    public void egress(PacketContext ctx) {
        VlanMembership m = memberships[ctx.egressPort];
        if (!ctx.routed && ctx.vid > 0 && m != null) {
            int outer = outerTag(ctx.frame);
            if (m.isTagged(ctx.vid)) {
                if (outer < 0) {
                    push(ctx);
                    outer = outerTag(ctx.frame);
                } else if (Vlan.vid(ctx.frame, outer) != ctx.vid) {
                    // a priority-tagged frame (VID 0) takes its VLAN's VID
                    int tci = ctx.frame.getUnsignedShort(outer + Vlan.TCI);
                    ctx.frame.setShort(outer + Vlan.TCI, (tci & 0xF000) | ctx.vid);
                }
            } else if (outer >= 0) {
                pop(ctx);
            }
        }
        int[] pcp = pcpMaps[ctx.egressPort];
        if (pcp != null) {
            int outer = outerTag(ctx.frame);
            if (outer >= 0) {
                Vlan.setPcp(ctx.frame, outer, pcp[ctx.tc]);
            }
        }
    }

    /** @return the offset of the outer VLAN tag's TPID, or -1 if the frame is untagged */
    private static int outerTag(ByteBuf frame) {
        int at = frame.readerIndex() + Ethernet.ETHER_TYPE;
        return EtherType.isVlanTag(frame.getUnsignedShort(at)) ? at : -1;
    }

    private void push(PacketContext ctx) {
        ByteBuf f = ctx.frame;
        int start = f.readerIndex();
        int[] pcpMap = pcpMaps[ctx.egressPort];
        int pcp = pcpMap != null ? pcpMap[ctx.tc] : ctx.tc;
        int dei = ctx.color == Color.GREEN ? 0 : 1;
        if (start >= Vlan.LENGTH) {
            moveMacs(f, start, start - Vlan.LENGTH);
            f.readerIndex(start - Vlan.LENGTH);
            Vlan.write(f, start - Vlan.LENGTH + MACS, EtherType.VLAN, pcp, dei, ctx.vid);
        } else {
            int len = f.readableBytes();
            ByteBuf copy = alloc.directBuffer(len + Vlan.LENGTH);
            copy.writeBytes(f, start, MACS);
            copy.writeZero(Vlan.LENGTH);
            copy.writeBytes(f, start + MACS, len - MACS);
            Vlan.write(copy, copy.readerIndex() + MACS, EtherType.VLAN, pcp, dei, ctx.vid);
            int shift = copy.readerIndex() + Vlan.LENGTH - start;
            ctx.l3Offset += shift;
            ctx.l4Offset = ctx.l4Offset < 0 ? -1 : ctx.l4Offset + shift;
            f.release();
            ctx.frame = copy;
        }
        ctx.vlanOffset = ctx.frame.readerIndex() + MACS;
        ctx.pcp = pcp;
        ctx.length += Vlan.LENGTH;
    }

    private static void pop(PacketContext ctx) {
        ByteBuf f = ctx.frame;
        int start = f.readerIndex();
        moveMacs(f, start, start + Vlan.LENGTH);
        f.readerIndex(start + Vlan.LENGTH);
        if (ctx.vlanOffset == start + MACS) {
            // the removed tag was the only one
            ctx.vlanOffset = -1;
            ctx.pcp = -1;
        }
        ctx.length -= Vlan.LENGTH;
    }

    /** Moves the 12 MAC bytes; read whole first, as source and destination overlap. */
    private static void moveMacs(ByteBuf f, int from, int to) {
        long head = f.getLong(from);
        int tail = f.getInt(from + 8);
        f.setLong(to, head);
        f.setInt(to + 8, tail);
    }
}
