package io.rocelab.codec;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Aeth;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.AtomicAckEth;
import io.rocelab.codec.header.AtomicEth;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Deth;
import io.rocelab.codec.header.Feth;
import io.rocelab.codec.header.Ieth;
import io.rocelab.codec.header.ImmDt;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pause;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.AethSyndrome;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.mad.CmSummary;
import io.rocelab.codec.mad.MadHeader;

/**
 * One human-readable line per frame, in the spirit of tcpdump and tshark's summary: addresses,
 * then for RoCEv2 the opcode name, destination QP, PSN, BTH flags and the important extension
 * header fields. Used by {@code rocelab decode} and in log messages.
 */
public final class FrameSummary {
    private static final String[] ECN = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};
    private final byte[] v6 = new byte[16];

    /** Appends the summary of a frame that {@code f} parsed without error. */
    public StringBuilder describe(ParsedFrame f, StringBuilder sb) {
        ByteBuf b = f.buffer();
        if (f.vlanCount() > 0) {
            for (int i = 0; i < f.vlanCount(); i++) {
                int o = f.vlanOffset(i);
                sb.append("vlan ").append(Vlan.vid(b, o)).append(" pcp ").append(Vlan.pcp(b, o)).append(", ");
            }
        }
        switch (f.kind()) {
            case ROCEV2, ROCEV1 -> roce(f, sb);
            case ARP -> arp(f, sb);
            case PFC -> pfc(f, sb);
            case PAUSE -> sb.append("PAUSE ").append(MacAddress.toString(f.srcMac())).append(" quanta ")
                    .append(Pause.quanta(b, f.l3Offset()));
            case IPV4, IPV6 -> ip(f, sb);
            default -> sb.append(String.format("ethertype 0x%04x ", f.etherType())).append(
                    MacAddress.toString(f.srcMac())).append(" > ").append(MacAddress.toString(f.dstMac()))
                    .append(" length ").append(f.limit() - f.start());
        }
        return sb;
    }

    private void addresses(ParsedFrame f, StringBuilder sb) {
        ByteBuf b = f.buffer();
        int l3 = f.l3Offset();
        boolean ports = f.udpOffset() >= 0 || (f.l4Protocol() == Ipv4.PROTO_TCP && f.end() - f.l4Offset() >= 4);
        int srcPort = ports ? b.getUnsignedShort(f.l4Offset()) : -1;
        int dstPort = ports ? b.getUnsignedShort(f.l4Offset() + 2) : -1;
        if (f.ipVersion() == 4) {
            sb.append(Ipv4.toString(Ipv4.src(b, l3)));
            appendPort(sb, srcPort, false);
            sb.append(" > ").append(Ipv4.toString(Ipv4.dst(b, l3)));
            appendPort(sb, dstPort, false);
        } else {
            Ipv6.src(b, l3, v6);
            sb.append(Ipv6.toString(v6));
            appendPort(sb, srcPort, true);
            sb.append(" > ");
            Ipv6.dst(b, l3, v6);
            sb.append(Ipv6.toString(v6));
            appendPort(sb, dstPort, true);
        }
    }

    /** The GID in {@link #v6} as Wireshark shows a GRH's: IPv6 text, {@code ::ffff:a.b.c.d} for an IPv4-mapped one. */
    private StringBuilder gid(StringBuilder sb) {
        boolean mapped = v6[10] == (byte) 0xFF && v6[11] == (byte) 0xFF;
        for (int i = 0; i < 10 && mapped; i++) {
            mapped = v6[i] == 0;
        }
        if (mapped) {
            return sb.append("::ffff:").append(v6[12] & 0xFF).append('.').append(v6[13] & 0xFF).append('.')
                    .append(v6[14] & 0xFF).append('.').append(v6[15] & 0xFF);
        }
        return sb.append(Ipv6.toString(v6));
    }

    private static void appendPort(StringBuilder sb, int port, boolean v6) {
        if (port >= 0) {
            sb.append(v6 ? "." : ":").append(port);
        }
    }

    private void roce(ParsedFrame f, StringBuilder sb) {
        ByteBuf b = f.buffer();
        int bth = f.bthOffset();
        if (f.isRoceV1()) {
            // no IP: the GRH's GIDs (IBA Annex A16)
            sb.append("RoCEv1 ");
            Ipv6.src(b, f.grhOffset(), v6);
            gid(sb).append(" > ");
            Ipv6.dst(b, f.grhOffset(), v6);
            gid(sb);
        } else {
            addresses(f, sb);
        }
        sb.append(' ').append(f.opcode().name());
        sb.append(String.format(" QP 0x%06x PSN %d", Bth.destQp(b, bth), Bth.psn(b, bth)));
        if (Bth.ackReq(b, bth) == 1) {
            sb.append(" A");
        }
        if (Bth.solicited(b, bth) == 1) {
            sb.append(" SE");
        }
        if (Bth.fecn(b, bth) == 1) {
            sb.append(" FECN");
        }
        if (Bth.becn(b, bth) == 1) {
            sb.append(" BECN");
        }
        if (Bth.pkey(b, bth) != Bth.DEFAULT_PKEY) {
            sb.append(String.format(" P_Key 0x%04x", Bth.pkey(b, bth)));
        }
        int o;
        StringBuilder cm = null;
        if ((o = f.offsetOf(ExtHeader.DETH)) >= 0) {
            sb.append(String.format(" DETH Q_Key 0x%08x srcQP 0x%06x", Deth.qkey(b, o), Deth.srcQp(b, o)));
            if (Bth.destQp(b, bth) == MadHeader.GSI_QPN && f.payloadLength() > 0) {
                // QP1 carries management datagrams: on RoCE, rdma_cm's connection handshake
                StringBuilder m = new StringBuilder();
                cm = CmSummary.describe(b, f.payloadOffset(), f.payloadLength(), m) ? m : null;
            }
        }
        if ((o = f.offsetOf(ExtHeader.FETH)) >= 0) {
            sb.append(String.format(" FETH 0x%08x", Feth.value(b, o)));
        }
        if ((o = f.offsetOf(ExtHeader.RETH)) >= 0) {
            sb.append(String.format(" RETH va 0x%x rkey 0x%08x len %d", Reth.va(b, o), Reth.rkey(b, o),
                    Reth.dmaLength(b, o)));
        }
        if ((o = f.offsetOf(ExtHeader.ATOMIC_ETH)) >= 0) {
            sb.append(String.format(" AtomicETH va 0x%x rkey 0x%08x swap/add 0x%x compare 0x%x", AtomicEth.va(b, o),
                    AtomicEth.rkey(b, o), AtomicEth.swapAdd(b, o), AtomicEth.compare(b, o)));
        }
        if ((o = f.offsetOf(ExtHeader.AETH)) >= 0) {
            sb.append(" AETH ").append(AethSyndrome.describe(Aeth.syndrome(b, o))).append(" MSN ")
                    .append(Aeth.msn(b, o));
        }
        if ((o = f.offsetOf(ExtHeader.ATOMIC_ACK_ETH)) >= 0) {
            sb.append(String.format(" orig 0x%x", AtomicAckEth.origRemoteData(b, o)));
        }
        if ((o = f.offsetOf(ExtHeader.IMM_DT)) >= 0) {
            sb.append(String.format(" ImmDt 0x%08x", ImmDt.immediate(b, o)));
        }
        if ((o = f.offsetOf(ExtHeader.IETH)) >= 0) {
            sb.append(String.format(" IETH rkey 0x%08x", Ieth.rkey(b, o)));
        }
        if (f.payloadLength() > 0 || f.opcode().has(io.rocelab.codec.ib.Opcode.PAYLOAD)) {
            sb.append(" payload ").append(f.payloadLength());
        }
        if (cm != null) {
            sb.append(cm);
        }
        if (f.isRoceV1()) {
            int tclass = Ipv6.trafficClass(b, f.grhOffset());
            if (tclass != 0) {
                sb.append(" tclass ").append(tclass);
            }
            return;
        }
        int dscp = f.dscp();
        int ecn = f.ecn();
        if (dscp != 0 || ecn != 0) {
            sb.append(" dscp ").append(dscp).append(' ').append(ECN[ecn]);
        }
    }

    private static void arp(ParsedFrame f, StringBuilder sb) {
        ByteBuf b = f.buffer();
        int o = f.l3Offset();
        if (!Arp.isEthernetIpv4(b, o)) {
            sb.append("ARP (not Ethernet/IPv4)");
            return;
        }
        if (Arp.operation(b, o) == Arp.REQUEST) {
            sb.append("ARP who-has ").append(Ipv4.toString(Arp.targetIp(b, o))).append(" tell ")
                    .append(Ipv4.toString(Arp.senderIp(b, o)));
        } else if (Arp.operation(b, o) == Arp.REPLY) {
            sb.append("ARP ").append(Ipv4.toString(Arp.senderIp(b, o))).append(" is-at ")
                    .append(MacAddress.toString(Arp.senderMac(b, o)));
        } else {
            sb.append("ARP operation ").append(Arp.operation(b, o));
        }
    }

    private static void pfc(ParsedFrame f, StringBuilder sb) {
        ByteBuf b = f.buffer();
        int o = f.l3Offset();
        sb.append("PFC ").append(MacAddress.toString(f.srcMac()));
        int vector = Pfc.classEnableVector(b, o);
        if (vector == 0) {
            sb.append(" (no priority enabled)");
        }
        for (int p = 0; p < Pfc.PRIORITIES; p++) {
            if ((vector & (1 << p)) != 0) {
                int q = Pfc.quanta(b, o, p);
                sb.append(" prio").append(p).append(q == 0 ? " resume" : " pause " + q);
            }
        }
    }

    private void ip(ParsedFrame f, StringBuilder sb) {
        ByteBuf b = f.buffer();
        int proto = f.l4Protocol();
        String name = switch (proto) {
            case Ipv4.PROTO_TCP -> "TCP";
            case Ipv4.PROTO_UDP -> "UDP";
            case 1 -> "ICMP";
            case 58 -> "ICMPv6";
            default -> (f.ipVersion() == 4 ? "IPv4" : "IPv6") + " proto " + proto;
        };
        sb.append(name).append(' ');
        addresses(f, sb);
        int l4Length = f.end() - f.l4Offset();
        if (proto == Ipv4.PROTO_TCP && l4Length >= 13) {
            int dataOffset = (b.getUnsignedByte(f.l4Offset() + 12) >>> 4) * 4;
            sb.append(" length ").append(Math.max(0, l4Length - dataOffset));
        } else if (proto == Ipv4.PROTO_UDP && f.udpOffset() >= 0) {
            sb.append(" length ").append(Udp.length(b, f.udpOffset()) - Udp.LENGTH);
        } else {
            sb.append(" length ").append(l4Length);
        }
    }
}
