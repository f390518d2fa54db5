package io.rocelab.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Aeth;
import io.rocelab.codec.header.AtomicAckEth;
import io.rocelab.codec.header.AtomicEth;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.CnpHeader;
import io.rocelab.codec.header.Deth;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Feth;
import io.rocelab.codec.header.Grh;
import io.rocelab.codec.header.Ieth;
import io.rocelab.codec.header.ImmDt;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.header.Vlan;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole RoCEv2 Ethernet frame as values (or, with {@link #roceV1(byte[], byte[])}, a RoCEv1 one:
 * EtherType 0x8915, GRH, no UDP; IBA Annex A16): what tools, tests and captures build and inspect. The
 * defaults are what Linux rxe puts on the wire (IPv4, DF, TTL 64, UDP checksum 0, P_Key 0xFFFF,
 * pad to a 4-byte boundary, ICRC computed, Ethernet padding to 60 bytes).
 *
 * <p>{@link #decode(ParsedFrame)} followed by {@link #encode(ByteBufAllocator)} reproduces the
 * original bytes exactly, including unknown opcodes (carried as payload), non-zero pad bytes and
 * Ethernet trailers. The data path does not use this class; it writes headers in place with the
 * flyweights in {@code io.rocelab.codec.header}.
 */
public final class RoceFrame {
    /** One 802.1Q or 802.1ad tag. */
    public record VlanTag(int tpid, int pcp, int dei, int vid) {
        public static VlanTag dot1q(int pcp, int vid) {
            return new VlanTag(EtherType.VLAN, pcp, 0, vid);
        }
    }

    public record RethFields(long va, int rkey, long dmaLength) {
    }

    public record AethFields(int syndrome, int msn) {
    }

    public record AtomicEthFields(long va, int rkey, long swapAdd, long compare) {
    }

    public record DethFields(int qkey, int resv8, int srcQp) {
    }

    // Ethernet
    private long dstMac;
    private long srcMac;
    private final List<VlanTag> vlans = new ArrayList<>();
    // IP, or the GRH of a RoCEv1 frame (ipVersion 6, its SGID/DGID in ipv6Src/ipv6Dst, HopLmt in ttl)
    private boolean roceV1;
    private int ipVersion = 4;
    private int ipv4Src;
    private int ipv4Dst;
    private byte[] ipv6Src = new byte[16];
    private byte[] ipv6Dst = new byte[16];
    private int trafficClass;
    private int flowLabel;
    private int ipId;
    private int flagsFragment = Ipv4.FLAG_DF;
    private int ttl = 64;
    private byte[] ipv4Options = new byte[0];
    private Integer ipv4Checksum;
    // UDP
    private int udpSrcPort = Udp.ROCE_SOURCE_PORT_MIN;
    private int udpDstPort = Udp.ROCEV2_PORT;
    private int udpChecksum;
    // BTH
    private Opcode opcode = Opcode.RC_SEND_ONLY;
    private int solicited;
    private int migReq;
    private Integer padCount;
    private int tver;
    private int pkey = Bth.DEFAULT_PKEY;
    private int fecn;
    private int becn;
    private int resv6;
    private int destQp;
    private int ackReq;
    private int resv7;
    private int psn;
    // extension headers
    private DethFields deth;
    private Integer feth;
    private RethFields reth;
    private AtomicEthFields atomicEth;
    private AethFields aeth;
    private Long atomicAckEth;
    private Integer immDt;
    private Integer ieth;
    private byte[] cnpReserved;
    // payload and trailer
    private byte[] payload = new byte[0];
    private byte[] pad;
    private Integer icrc;
    private byte[] trailer;

    /** Reads every field of a parsed, well-formed RoCEv2 (or RoCEv1) frame. */
    public static RoceFrame decode(ParsedFrame f) {
        if (f.isRoceV1()) {
            return decodeV1(f);
        }
        if (!f.isRoce() || f.udpOffset() < 0) {
            throw new IllegalArgumentException("not a parsed RoCEv2 Ethernet frame: " + f.kind());
        }
        ByteBuf b = f.buffer();
        RoceFrame r = new RoceFrame();
        r.dstMac = f.dstMac();
        r.srcMac = f.srcMac();
        for (int i = 0; i < f.vlanCount(); i++) {
            int o = f.vlanOffset(i);
            r.vlans.add(new VlanTag(Vlan.tpid(b, o), Vlan.pcp(b, o), Vlan.dei(b, o), Vlan.vid(b, o)));
        }
        int l3 = f.l3Offset();
        r.ipVersion = f.ipVersion();
        if (r.ipVersion == 4) {
            r.trafficClass = Ipv4.tos(b, l3);
            r.ipId = Ipv4.id(b, l3);
            r.flagsFragment = Ipv4.flagsFragment(b, l3);
            r.ttl = Ipv4.ttl(b, l3);
            r.ipv4Src = Ipv4.src(b, l3);
            r.ipv4Dst = Ipv4.dst(b, l3);
            r.ipv4Options = new byte[f.ipHeaderLength() - Ipv4.MIN_LENGTH];
            b.getBytes(l3 + Ipv4.MIN_LENGTH, r.ipv4Options);
            if (!Ipv4.checksumOk(b, l3)) {
                r.ipv4Checksum = Ipv4.checksum(b, l3);
            }
        } else {
            r.trafficClass = Ipv6.trafficClass(b, l3);
            r.flowLabel = Ipv6.flowLabel(b, l3);
            r.ttl = Ipv6.hopLimit(b, l3);
            Ipv6.src(b, l3, r.ipv6Src);
            Ipv6.dst(b, l3, r.ipv6Dst);
        }
        int udp = f.udpOffset();
        r.udpSrcPort = Udp.srcPort(b, udp);
        r.udpDstPort = Udp.dstPort(b, udp);
        r.udpChecksum = Udp.checksum(b, udp);
        readTransport(f, r);
        r.icrc = f.icrc();
        if (f.trailerLength() > 0) {
            r.trailer = new byte[f.trailerLength()];
            b.getBytes(f.end(), r.trailer);
        } else {
            r.trailer = new byte[0];
        }
        return r;
    }

    private static RoceFrame decodeV1(ParsedFrame f) {
        ByteBuf b = f.buffer();
        RoceFrame r = new RoceFrame();
        r.roceV1 = true;
        r.ipVersion = 6;
        r.dstMac = f.dstMac();
        r.srcMac = f.srcMac();
        for (int i = 0; i < f.vlanCount(); i++) {
            int o = f.vlanOffset(i);
            r.vlans.add(new VlanTag(Vlan.tpid(b, o), Vlan.pcp(b, o), Vlan.dei(b, o), Vlan.vid(b, o)));
        }
        int grh = f.grhOffset();
        r.trafficClass = Ipv6.trafficClass(b, grh);
        r.flowLabel = Ipv6.flowLabel(b, grh);
        r.ttl = Ipv6.hopLimit(b, grh);
        Ipv6.src(b, grh, r.ipv6Src);
        Ipv6.dst(b, grh, r.ipv6Dst);
        readTransport(f, r);
        r.icrc = f.icrc();
        r.trailer = new byte[f.trailerLength()];
        b.getBytes(f.end(), r.trailer);
        return r;
    }

    private static void readTransport(ParsedFrame f, RoceFrame r) {
        ByteBuf b = f.buffer();
        int bth = f.bthOffset();
        r.opcode = f.opcode();
        r.solicited = Bth.solicited(b, bth);
        r.migReq = Bth.migReq(b, bth);
        r.padCount = Bth.padCount(b, bth);
        r.tver = Bth.tver(b, bth);
        r.pkey = Bth.pkey(b, bth);
        r.fecn = Bth.fecn(b, bth);
        r.becn = Bth.becn(b, bth);
        r.resv6 = Bth.resv6(b, bth);
        r.destQp = Bth.destQp(b, bth);
        r.ackReq = Bth.ackReq(b, bth);
        r.resv7 = Bth.resv7(b, bth);
        r.psn = Bth.psn(b, bth);
        Opcode op = r.opcode;
        int o;
        if ((o = f.offsetOf(ExtHeader.DETH)) >= 0) {
            r.deth = new DethFields(Deth.qkey(b, o), Deth.resv8(b, o), Deth.srcQp(b, o));
        }
        if ((o = f.offsetOf(ExtHeader.FETH)) >= 0) {
            r.feth = Feth.value(b, o);
        }
        if ((o = f.offsetOf(ExtHeader.RETH)) >= 0) {
            r.reth = new RethFields(Reth.va(b, o), Reth.rkey(b, o), Reth.dmaLength(b, o));
        }
        if ((o = f.offsetOf(ExtHeader.ATOMIC_ETH)) >= 0) {
            r.atomicEth = new AtomicEthFields(AtomicEth.va(b, o), AtomicEth.rkey(b, o), AtomicEth.swapAdd(b, o),
                    AtomicEth.compare(b, o));
        }
        if ((o = f.offsetOf(ExtHeader.AETH)) >= 0) {
            r.aeth = new AethFields(Aeth.syndrome(b, o), Aeth.msn(b, o));
        }
        if ((o = f.offsetOf(ExtHeader.ATOMIC_ACK_ETH)) >= 0) {
            r.atomicAckEth = AtomicAckEth.origRemoteData(b, o);
        }
        if ((o = f.offsetOf(ExtHeader.IMM_DT)) >= 0) {
            r.immDt = ImmDt.immediate(b, o);
        }
        if ((o = f.offsetOf(ExtHeader.IETH)) >= 0) {
            r.ieth = Ieth.rkey(b, o);
        }
        if ((o = f.offsetOf(ExtHeader.CNP)) >= 0) {
            r.cnpReserved = new byte[CnpHeader.LENGTH];
            b.getBytes(o, r.cnpReserved);
        }
        r.payload = new byte[f.payloadLength()];
        b.getBytes(f.payloadOffset(), r.payload);
        r.pad = new byte[r.padCount];
        b.getBytes(f.payloadOffset() + f.payloadLength(), r.pad);
        assert op.headerLength() == f.payloadOffset() - bth;
    }

    // ---- encoding ----

    private int ipHeaderLength() {
        return ipVersion == 4 ? Ipv4.MIN_LENGTH + ipv4Options.length : Ipv6.LENGTH;
    }

    /** The UDP header, or none in a RoCEv1 frame. */
    private int udpHeaderLength() {
        return roceV1 ? 0 : Udp.LENGTH;
    }

    private int effectivePadCount() {
        return padCount != null ? padCount : (4 - (payload.length & 3)) & 3;
    }

    private int udpLength() {
        return Udp.LENGTH + opcode.headerLength() + payload.length + effectivePadCount() + Icrc.LENGTH;
    }

    private int trailerLength(int unpadded) {
        return trailer != null ? trailer.length : Math.max(0, Ethernet.MIN_FRAME - unpadded);
    }

    /** Length of the encoded frame in bytes. */
    public int encodedLength() {
        int unpadded = Ethernet.LENGTH + Vlan.LENGTH * vlans.size() + ipHeaderLength() + udpLength()
                - Udp.LENGTH + udpHeaderLength();
        return unpadded + trailerLength(unpadded);
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(encodedLength());
        boolean ok = false;
        try {
            encodeInto(out);
            ok = true;
            return out;
        } finally {
            if (!ok) {
                out.release();
            }
        }
    }

    /** Appends the frame at {@code out}'s writer index. */
    public void encodeInto(ByteBuf out) {
        checkHeaders();
        int start = out.writerIndex();
        int length = encodedLength();
        out.ensureWritable(length);
        out.setZero(start, length);
        int off = start;
        int firstType = vlans.isEmpty() ? l3EtherType() : vlans.get(0).tpid();
        Ethernet.write(out, off, dstMac, srcMac, firstType);
        off += Ethernet.ETHER_TYPE;
        for (int i = 0; i < vlans.size(); i++) {
            VlanTag t = vlans.get(i);
            Vlan.write(out, off, t.tpid(), t.pcp(), t.dei(), t.vid());
            int inner = i + 1 < vlans.size() ? vlans.get(i + 1).tpid() : l3EtherType();
            out.setShort(off + Vlan.INNER_ETHER_TYPE, inner);
            off += Vlan.LENGTH;
        }
        int l3 = off + 2;
        int udpLength = udpLength();
        int udp;
        if (roceV1) {
            // GRH (IBA 8.3.1): PayLen counts the BTH through the ICRC
            Grh.write(out, l3, trafficClass, flowLabel, udpLength - Udp.LENGTH, ttl, ipv6Src, ipv6Dst);
            udp = l3 + Grh.LENGTH - Udp.LENGTH; // where a UDP header would end: the BTH starts at the GRH's end
        } else if (ipVersion == 4) {
            int hl = ipHeaderLength();
            out.setBytes(l3 + Ipv4.MIN_LENGTH, ipv4Options);
            Ipv4.write(out, l3, trafficClass, hl + udpLength, ipId, flagsFragment, ttl, Ipv4.PROTO_UDP, ipv4Src,
                    ipv4Dst);
            out.setByte(l3, 0x40 | (hl / 4));
            Ipv4.updateChecksum(out, l3);
            if (ipv4Checksum != null) {
                out.setShort(l3 + Ipv4.CHECKSUM, ipv4Checksum);
            }
            udp = l3 + hl;
        } else {
            Ipv6.write(out, l3, trafficClass, flowLabel, udpLength, Ipv4.PROTO_UDP, ttl, ipv6Src, ipv6Dst);
            udp = l3 + Ipv6.LENGTH;
        }
        if (!roceV1) {
            Udp.write(out, udp, udpSrcPort, udpDstPort, udpLength, udpChecksum);
        }
        int bth = udp + Udp.LENGTH;
        int pc = effectivePadCount();
        Bth.write(out, bth, opcode.code(), solicited, migReq, pc, tver, pkey, fecn, becn, resv6, destQp, ackReq,
                resv7, psn);
        writeExtHeaders(out, bth);
        int payloadOffset = bth + opcode.headerLength();
        out.setBytes(payloadOffset, payload);
        if (pad != null) {
            out.setBytes(payloadOffset + payload.length, pad, 0, Math.min(pad.length, pc));
        }
        int icrcOffset = bth + udpLength - Udp.LENGTH - Icrc.LENGTH;
        int end = icrcOffset + Icrc.LENGTH;
        if (trailer != null) {
            out.setBytes(end, trailer);
        }
        out.writerIndex(start + length);
        int crc = icrc != null ? icrc
                : new Icrc().compute(out, l3, ipVersion, ipHeaderLength(), out, roceV1 ? -1 : udp, bth, icrcOffset);
        out.setIntLE(icrcOffset, crc);
    }

    private int l3EtherType() {
        if (roceV1) {
            return EtherType.ROCE;
        }
        return ipVersion == 4 ? EtherType.IPV4 : EtherType.IPV6;
    }

    private void writeExtHeaders(ByteBuf out, int bth) {
        Opcode op = opcode;
        if (op.hasHeader(ExtHeader.DETH)) {
            Deth.write(out, bth + op.offsetOf(ExtHeader.DETH), deth.qkey(), deth.resv8(), deth.srcQp());
        }
        if (op.hasHeader(ExtHeader.FETH)) {
            Feth.write(out, bth + op.offsetOf(ExtHeader.FETH), feth);
        }
        if (op.hasHeader(ExtHeader.RETH)) {
            Reth.write(out, bth + op.offsetOf(ExtHeader.RETH), reth.va(), reth.rkey(), reth.dmaLength());
        }
        if (op.hasHeader(ExtHeader.ATOMIC_ETH)) {
            AtomicEth.write(out, bth + op.offsetOf(ExtHeader.ATOMIC_ETH), atomicEth.va(), atomicEth.rkey(),
                    atomicEth.swapAdd(), atomicEth.compare());
        }
        if (op.hasHeader(ExtHeader.AETH)) {
            Aeth.write(out, bth + op.offsetOf(ExtHeader.AETH), aeth.syndrome(), aeth.msn());
        }
        if (op.hasHeader(ExtHeader.ATOMIC_ACK_ETH)) {
            AtomicAckEth.write(out, bth + op.offsetOf(ExtHeader.ATOMIC_ACK_ETH), atomicAckEth);
        }
        if (op.hasHeader(ExtHeader.IMM_DT)) {
            ImmDt.write(out, bth + op.offsetOf(ExtHeader.IMM_DT), immDt);
        }
        if (op.hasHeader(ExtHeader.IETH)) {
            Ieth.write(out, bth + op.offsetOf(ExtHeader.IETH), ieth);
        }
        if (op.hasHeader(ExtHeader.CNP) && cnpReserved != null) {
            out.setBytes(bth + op.offsetOf(ExtHeader.CNP), cnpReserved, 0, CnpHeader.LENGTH);
        }
    }

    /** A missing extension header is an API mistake: name it rather than fail with a NullPointerException. */
    private void checkHeaders() {
        Opcode op = opcode;
        require(op, ExtHeader.DETH, deth);
        require(op, ExtHeader.FETH, feth);
        require(op, ExtHeader.RETH, reth);
        require(op, ExtHeader.ATOMIC_ETH, atomicEth);
        require(op, ExtHeader.AETH, aeth);
        require(op, ExtHeader.ATOMIC_ACK_ETH, atomicAckEth);
        require(op, ExtHeader.IMM_DT, immDt);
        require(op, ExtHeader.IETH, ieth);
        int pc = effectivePadCount();
        if (pc < 0 || pc > 3) {
            throw new IllegalArgumentException("pad count must be 0..3, got " + pc);
        }
    }

    private static void require(Opcode op, ExtHeader h, Object value) {
        if (op.hasHeader(h) && value == null) {
            throw new IllegalStateException(op + " carries a " + h.wireName() + ": set it before encoding");
        }
    }

    // ---- fluent setters ----

    public RoceFrame ethernet(long dst, long src) {
        this.dstMac = dst;
        this.srcMac = src;
        return this;
    }

    public RoceFrame vlan(VlanTag tag) {
        this.vlans.add(tag);
        return this;
    }

    public RoceFrame ipv4(int src, int dst) {
        this.roceV1 = false;
        this.ipVersion = 4;
        this.ipv4Src = src;
        this.ipv4Dst = dst;
        return this;
    }

    /**
     * A RoCEv1 frame (IBA Annex A16): EtherType 0x8915 and a GRH with these GIDs instead of IP and
     * UDP. The traffic class, flow label and hop limit ({@link #ttl}) are the GRH's TClass,
     * FlowLabel and HopLmt; the UDP fields are not used.
     */
    public RoceFrame roceV1(byte[] sgid16, byte[] dgid16) {
        ipv6(sgid16, dgid16);
        this.roceV1 = true;
        return this;
    }

    /** Whether this is a RoCEv1 frame. */
    public boolean isRoceV1() {
        return roceV1;
    }

    public RoceFrame ipv6(byte[] src16, byte[] dst16) {
        this.roceV1 = false;
        this.ipVersion = 6;
        this.ipv6Src = src16.clone();
        this.ipv6Dst = dst16.clone();
        return this;
    }

    /** IPv4 TOS or IPv6 traffic class: DSCP in the top six bits, ECN in the low two. */
    public RoceFrame trafficClass(int tc) {
        this.trafficClass = tc;
        return this;
    }

    public RoceFrame dscpEcn(int dscp, int ecn) {
        this.trafficClass = (dscp << 2) | (ecn & 3);
        return this;
    }

    public RoceFrame flowLabel(int flowLabel) {
        this.flowLabel = flowLabel;
        return this;
    }

    public RoceFrame ipId(int id) {
        this.ipId = id;
        return this;
    }

    public RoceFrame flagsFragment(int flagsFragment) {
        this.flagsFragment = flagsFragment;
        return this;
    }

    /** IPv4 TTL or IPv6 hop limit. */
    public RoceFrame ttl(int ttl) {
        this.ttl = ttl;
        return this;
    }

    public RoceFrame udp(int srcPort, int dstPort) {
        this.udpSrcPort = srcPort;
        this.udpDstPort = dstPort;
        return this;
    }

    public RoceFrame udpChecksum(int checksum) {
        this.udpChecksum = checksum;
        return this;
    }

    public RoceFrame opcode(Opcode opcode) {
        this.opcode = opcode;
        return this;
    }

    public RoceFrame solicited(boolean se) {
        this.solicited = se ? 1 : 0;
        return this;
    }

    public RoceFrame migReq(int migReq) {
        this.migReq = migReq;
        return this;
    }

    /** Explicit PadCnt; by default it pads the payload to a 4-byte boundary. */
    public RoceFrame padCount(int padCount) {
        this.padCount = padCount;
        return this;
    }

    public RoceFrame tver(int tver) {
        this.tver = tver;
        return this;
    }

    public RoceFrame pkey(int pkey) {
        this.pkey = pkey;
        return this;
    }

    public RoceFrame fecn(int fecn) {
        this.fecn = fecn;
        return this;
    }

    public RoceFrame becn(int becn) {
        this.becn = becn;
        return this;
    }

    public RoceFrame resv6(int resv6) {
        this.resv6 = resv6;
        return this;
    }

    public RoceFrame destQp(int qpn) {
        this.destQp = qpn;
        return this;
    }

    public RoceFrame ackReq(boolean ackReq) {
        this.ackReq = ackReq ? 1 : 0;
        return this;
    }

    public RoceFrame resv7(int resv7) {
        this.resv7 = resv7;
        return this;
    }

    public RoceFrame psn(int psn) {
        this.psn = psn;
        return this;
    }

    public RoceFrame deth(int qkey, int srcQp) {
        this.deth = new DethFields(qkey, 0, srcQp);
        return this;
    }

    public RoceFrame feth(int value) {
        this.feth = value;
        return this;
    }

    public RoceFrame reth(long va, int rkey, long dmaLength) {
        this.reth = new RethFields(va, rkey, dmaLength);
        return this;
    }

    public RoceFrame atomicEth(long va, int rkey, long swapAdd, long compare) {
        this.atomicEth = new AtomicEthFields(va, rkey, swapAdd, compare);
        return this;
    }

    public RoceFrame aeth(int syndrome, int msn) {
        this.aeth = new AethFields(syndrome, msn);
        return this;
    }

    public RoceFrame atomicAckEth(long origRemoteData) {
        this.atomicAckEth = origRemoteData;
        return this;
    }

    public RoceFrame immDt(int imm) {
        this.immDt = imm;
        return this;
    }

    public RoceFrame ieth(int rkey) {
        this.ieth = rkey;
        return this;
    }

    public RoceFrame payload(byte[] payload) {
        this.payload = payload.clone();
        return this;
    }

    /** A fixed ICRC (for crafting bad frames); by default it is computed. */
    public RoceFrame icrc(Integer icrc) {
        this.icrc = icrc;
        return this;
    }

    /** Recompute the ICRC on encode (drop a decoded one, e.g. after changing a field). */
    public RoceFrame recomputeIcrc() {
        this.icrc = null;
        return this;
    }

    // ---- getters ----

    public long dstMac() {
        return dstMac;
    }

    public long srcMac() {
        return srcMac;
    }

    public List<VlanTag> vlans() {
        return List.copyOf(vlans);
    }

    public int ipVersion() {
        return ipVersion;
    }

    public int ipv4Src() {
        return ipv4Src;
    }

    public int ipv4Dst() {
        return ipv4Dst;
    }

    public byte[] ipv6Src() {
        return ipv6Src.clone();
    }

    public byte[] ipv6Dst() {
        return ipv6Dst.clone();
    }

    public int trafficClass() {
        return trafficClass;
    }

    public int flowLabel() {
        return flowLabel;
    }

    public int ipId() {
        return ipId;
    }

    public int flagsFragment() {
        return flagsFragment;
    }

    public int ttl() {
        return ttl;
    }

    public int udpSrcPort() {
        return udpSrcPort;
    }

    public int udpDstPort() {
        return udpDstPort;
    }

    public int udpChecksum() {
        return udpChecksum;
    }

    public Opcode opcode() {
        return opcode;
    }

    public int solicited() {
        return solicited;
    }

    public int migReq() {
        return migReq;
    }

    public int padCount() {
        return effectivePadCount();
    }

    public int tver() {
        return tver;
    }

    public int pkey() {
        return pkey;
    }

    public int fecn() {
        return fecn;
    }

    public int becn() {
        return becn;
    }

    public int resv6() {
        return resv6;
    }

    public int destQp() {
        return destQp;
    }

    public int ackReq() {
        return ackReq;
    }

    public int resv7() {
        return resv7;
    }

    public int psn() {
        return psn;
    }

    public DethFields deth() {
        return deth;
    }

    public Integer feth() {
        return feth;
    }

    public RethFields reth() {
        return reth;
    }

    public AtomicEthFields atomicEth() {
        return atomicEth;
    }

    public AethFields aeth() {
        return aeth;
    }

    public Long atomicAckEth() {
        return atomicAckEth;
    }

    public Integer immDt() {
        return immDt;
    }

    public Integer ieth() {
        return ieth;
    }

    public byte[] cnpReserved() {
        return cnpReserved == null ? null : cnpReserved.clone();
    }

    public byte[] payload() {
        return payload.clone();
    }

    public byte[] pad() {
        return pad == null ? new byte[effectivePadCount()] : pad.clone();
    }

    /** The ICRC as decoded or fixed, or null when it will be computed. */
    public Integer icrc() {
        return icrc;
    }

    public byte[] trailer() {
        return trailer == null ? null : trailer.clone();
    }
}
