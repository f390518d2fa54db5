package io.rocelab.sw.config;

import java.util.Arrays;
import java.util.Objects;

/**
 * Everything the data plane needs about one port, resolved from SONiC's {@code PORT},
 * {@code PORT_QOS_MAP}, {@code CABLE_LENGTH}, {@code BUFFER_PG}, {@code BUFFER_QUEUE},
 * {@code QUEUE}, {@code PFC_WD} and {@code VLAN_MEMBER} tables.
 *
 * @param name            e.g. {@code Ethernet0}
 * @param speedBitsPerSecond line rate (SONiC gives it in Mb/s)
 * @param mtu             largest frame, bytes
 * @param cableMeters     cable length, for the headroom check and documentation
 * @param trust           which header picks the traffic class
 * @param dscpToTc        64 entries
 * @param dot1pToTc       8 entries
 * @param tcToPg          8 entries
 * @param tcToQueue       8 entries
 * @param pfcEnableMask   bit p set = priority p is lossless ({@code pfc_enable "3,4"})
 * @param pgProfiles      8 entries, null = nothing configured for that PG (lossy, shared pool only)
 * @param queues          8 entries, never null
 * @param pfcWd           the watchdog, or null if off
 * @param dscpToColor     64 entries of {@link Color} ({@code dscp_to_color_map}), or null
 * @param tcToDot1p       8 entries: the PCP a tagged frame of each TC leaves with ({@code tc_to_dot1p_map}),
 *                        or null to leave the PCP as it is
 * @param vlans           the port's VLAN membership, or null if it is in no VLAN (VLAN-unaware)
 * @param globalFlowControl 802.3x PAUSE on the port (rocelab's {@code PORT} field
 *                        {@code global_flow_control}, SAI's {@code SAI_PORT_ATTR_GLOBAL_FLOW_CONTROL_MODE})
 * @param tcToDscp        8 entries: the DSCP an IP packet of each TC leaves the port with ({@code tc_to_dscp_map},
 *                        SAI's {@code SAI_PORT_ATTR_QOS_TC_AND_COLOR_TO_DSCP_MAP}), or null to leave the DSCP as it is
 */
public record PortConfig(String name, long speedBitsPerSecond, int mtu, int cableMeters, Trust trust,
                         int[] dscpToTc, int[] dot1pToTc, int[] tcToPg, int[] tcToQueue, int pfcEnableMask,
                         BufferProfile[] pgProfiles, QueueConfig[] queues, PfcWdConfig pfcWd, int[] dscpToColor,
                         int[] tcToDot1p, VlanMembership vlans, GlobalFlowControl globalFlowControl, int[] tcToDscp) {

    /** A port without 802.3x PAUSE ({@link GlobalFlowControl#OFF}) and without egress DSCP remarking. */
    public PortConfig(String name, long speedBitsPerSecond, int mtu, int cableMeters, Trust trust,
                      int[] dscpToTc, int[] dot1pToTc, int[] tcToPg, int[] tcToQueue, int pfcEnableMask,
                      BufferProfile[] pgProfiles, QueueConfig[] queues, PfcWdConfig pfcWd, int[] dscpToColor,
                      int[] tcToDot1p, VlanMembership vlans) {
        this(name, speedBitsPerSecond, mtu, cableMeters, trust, dscpToTc, dot1pToTc, tcToPg, tcToQueue, pfcEnableMask,
            pgProfiles, queues, pfcWd, dscpToColor, tcToDot1p, vlans, GlobalFlowControl.OFF, null);
    }

    public PortConfig {
        globalFlowControl = globalFlowControl == null ? GlobalFlowControl.OFF : globalFlowControl;
    }

    /** Equal when every field is, the arrays by their contents: a configuration is data. */
    @Override
    public boolean equals(Object o) {
        return o instanceof PortConfig p && name.equals(p.name) && speedBitsPerSecond == p.speedBitsPerSecond
            && mtu == p.mtu && cableMeters == p.cableMeters && trust == p.trust && Arrays.equals(dscpToTc, p.dscpToTc)
            && Arrays.equals(dot1pToTc, p.dot1pToTc) && Arrays.equals(tcToPg, p.tcToPg)
            && Arrays.equals(tcToQueue, p.tcToQueue) && pfcEnableMask == p.pfcEnableMask
            && Arrays.equals(pgProfiles, p.pgProfiles) && Arrays.equals(queues, p.queues)
            && Objects.equals(pfcWd, p.pfcWd) && Arrays.equals(dscpToColor, p.dscpToColor)
            && Arrays.equals(tcToDot1p, p.tcToDot1p) && Objects.equals(vlans, p.vlans)
            && globalFlowControl == p.globalFlowControl && Arrays.equals(tcToDscp, p.tcToDscp);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, speedBitsPerSecond, mtu, cableMeters, trust, Arrays.hashCode(dscpToTc),
            Arrays.hashCode(tcToQueue), pfcEnableMask, Arrays.hashCode(queues), pfcWd, vlans);
    }

    @Override
    public String toString() {
        return "PortConfig[" + name + ", " + speedBitsPerSecond + " bit/s, mtu " + mtu + ", " + cableMeters + " m, trust "
            + trust + ", dscpToTc " + Arrays.toString(dscpToTc) + ", tcToPg " + Arrays.toString(tcToPg) + ", tcToQueue "
            + Arrays.toString(tcToQueue) + ", pfc 0x" + Integer.toHexString(pfcEnableMask) + ", pgs "
            + Arrays.toString(pgProfiles) + ", queues " + Arrays.toString(queues) + ", pfcWd " + pfcWd
            + (globalFlowControl == GlobalFlowControl.OFF ? "" : ", global_flow_control " + globalFlowControl.value()) + "]";
    }

    /** @return true if PFC is enabled for {@code priority} */
    public boolean pfcEnabled(int priority) {
        return (pfcEnableMask & (1 << priority)) != 0;
    }
}
