package io.rocelab.sw.pipeline;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Vlan;
import io.rocelab.sw.config.Color;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.Trust;

/**
 * Classifier: picks the traffic class from the header the ingress port trusts (SONiC
 * {@code DSCP_TO_TC_MAP} or {@code DOT1P_TO_TC_MAP} bound in {@code PORT_QOS_MAP}), then the
 * priority group ({@code TC_TO_PRIORITY_GROUP_MAP}) and egress queue ({@code TC_TO_QUEUE_MAP}).
 * The TC is also the 802.1p priority that PFC pauses (IEEE 802.1Qbb), so a TC is lossless when
 * {@code pfc_enable} lists it.
 *
 * <p>It also gives the packet its {@link Color} (ingress {@code DSCP_TO_COLOR_MAP}, 802.1Q DEI).
 *
 * <p>An untrusted port re-marks: everything goes to TC 0 and DSCP/PCP are rewritten to 0, so that
 * a host cannot claim the lossless class and mislead the switches downstream.
 */
public final class ClassifyStage {
    private static final int PG_SHIFT = 4;
    private static final int QUEUE_SHIFT = 8;
    private static final int LOSSLESS_BIT = 1 << 12;
    private static final int COLOR_SHIFT = 13;

    private final PortConfig[] ports;
    /**
     * Per port that trusts DSCP, per DSCP: the whole decision (TC, PG, queue, lossless, colour of
     * the DSCP map) packed in one int, computed once from the configuration; null for other ports.
     */
    private final int[][] byDscp;

    /** @param ports per-port configuration, indexed like the switch's ports */
    public ClassifyStage(PortConfig[] ports) {
        this.ports = ports;
        this.byDscp = new int[ports.length][];
        for (int i = 0; i < ports.length; i++) {
            PortConfig p = ports[i];
            if (p.trust() == Trust.DSCP) {
                int[] t = new int[64];
                for (int dscp = 0; dscp < 64; dscp++) {
                    int tc = p.dscpToTc()[dscp];
                    int color = p.dscpToColor() != null ? p.dscpToColor()[dscp] : Color.GREEN;
                    t[dscp] = tc | p.tcToPg()[tc] << PG_SHIFT | p.tcToQueue()[tc] << QUEUE_SHIFT
                        | (p.pfcEnabled(tc) ? LOSSLESS_BIT : 0) | color << COLOR_SHIFT;
                }
                byDscp[i] = t;
            }
        }
    }

    /** @param ctx a parsed frame */
    public void apply(PacketContext ctx) {
        int[] table = byDscp[ctx.ingressPort];
        if (table != null && ctx.dscp >= 0) {
            int d = table[ctx.dscp];
            int tc = d & 0xF;
            ctx.tc = tc;
            ctx.priorityGroup = d >>> PG_SHIFT & 0xF;
            ctx.queue = d >>> QUEUE_SHIFT & 0xF;
            ctx.lossless = (d & LOSSLESS_BIT) != 0;
            int color = d >>> COLOR_SHIFT;
            // DEI set makes a frame at least yellow
            ctx.color = ctx.vlanOffset >= 0 && Vlan.dei(ctx.frame, ctx.vlanOffset) == 1
                ? Math.max(Color.YELLOW, color) : color;
            return;
        }
        PortConfig p = ports[ctx.ingressPort];
        int tc;
        if (p.trust() == Trust.DSCP && ctx.dscp >= 0) {
            tc = p.dscpToTc()[ctx.dscp];
        } else if (p.trust() == Trust.DSCP && ctx.pcp >= 0) {
            tc = p.dot1pToTc()[ctx.pcp];
        } else if (p.trust() == Trust.DOT1P && ctx.pcp >= 0) {
            tc = p.dot1pToTc()[ctx.pcp];
        } else {
            tc = 0;
            if (p.trust() == Trust.NONE) {
                remark(ctx);
            }
        }
        ctx.tc = tc;
        ctx.priorityGroup = p.tcToPg()[tc];
        ctx.queue = p.tcToQueue()[tc];
        ctx.lossless = p.pfcEnabled(tc);
        ctx.color = color(p, ctx);
    }

    /** DEI set (IEEE 802.1Q 6.9.3: drop eligible) makes a frame yellow; the DSCP map may make it worse. */
    private static int color(PortConfig p, PacketContext ctx) {
        int c = ctx.vlanOffset >= 0 && Vlan.dei(ctx.frame, ctx.vlanOffset) == 1 ? Color.YELLOW : Color.GREEN;
        int[] map = p.dscpToColor();
        if (map != null && ctx.dscp >= 0) {
            c = Math.max(c, map[ctx.dscp]);
        }
        return c;
    }

    private static void remark(PacketContext ctx) {
        if (ctx.ipVersion == 4 && ctx.dscp != 0) {
            Ipv4.setDscp(ctx.frame, ctx.l3Offset, 0);
            ctx.dscp = 0;
        } else if (ctx.ipVersion == 6 && ctx.dscp != 0) {
            int ecn = Ipv6.ecn(ctx.frame, ctx.l3Offset);
            Ipv6.setTrafficClass(ctx.frame, ctx.l3Offset, ecn);
            ctx.dscp = 0;
        }
        if (ctx.vlanOffset >= 0 && ctx.pcp != 0) {
            Vlan.setPcp(ctx.frame, ctx.vlanOffset, 0);
            ctx.pcp = 0;
        }
    }
}
