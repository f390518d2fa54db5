package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/**
 * VXLAN header flyweight (RFC 7348 section 5): eight bytes after a UDP header to port 4789, the
 * flags byte with the I flag (a valid VNI) set and every other flag 0, 24 reserved bits, the
 * 24-bit VXLAN Network Identifier and 8 more reserved bits; the inner Ethernet frame follows.
 */
public final class Vxlan {
    /** IANA's UDP port of VXLAN (RFC 7348 section 5, "Destination Port"). */
    public static final int PORT = 4789;
    public static final int FLAGS = 0;
    public static final int VNI = 4;
    public static final int LENGTH = 8;
    /** The I flag: "MUST be set to 1 for a valid VXLAN Network ID (VNI)". */
    public static final int FLAG_I = 0x08;
    /** The largest VNI (24 bits). */
    public static final int MAX_VNI = 0xFF_FFFF;
    /**
     * The range RFC 7348 recommends for the outer UDP source port ("the dynamic/private port range
     * 49152-65535"), taken from a hash of the inner frame so that ECMP spreads the tunnel's flows.
     */
    public static final int SOURCE_PORT_MIN = 49152;
    public static final int SOURCE_PORT_COUNT = 65536 - SOURCE_PORT_MIN;
    /** Outer Ethernet, IPv4 without options, UDP and VXLAN: what encapsulation adds to the inner frame. */
    public static final int IPV4_OVERHEAD = Ethernet.LENGTH + Ipv4.MIN_LENGTH + Udp.LENGTH + LENGTH;

    private Vxlan() {
    }

    public static int flags(ByteBuf b, int off) {
        return b.getUnsignedByte(off + FLAGS);
    }

    /** @return the 24-bit VNI */
    public static int vni(ByteBuf b, int off) {
        return b.getInt(off + VNI) >>> 8;
    }

    /** @return true if the I flag is set (the VNI is valid) */
    public static boolean validVni(ByteBuf b, int off) {
        return (flags(b, off) & FLAG_I) != 0;
    }

    /** Writes the header: the I flag, reserved bits 0, {@code vni}. */
    public static void write(ByteBuf b, int off, int vni) {
        b.setInt(off + FLAGS, FLAG_I << 24);
        b.setInt(off + VNI, (vni & MAX_VNI) << 8);
    }

    /** @return the outer UDP source port for an inner flow's {@code hash}, in RFC 7348's range */
    public static int sourcePort(long hash) {
        return SOURCE_PORT_MIN + (int) Long.remainderUnsigned(hash ^ (hash >>> 32), SOURCE_PORT_COUNT);
    }
}
