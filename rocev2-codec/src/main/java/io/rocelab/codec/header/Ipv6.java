package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** IPv6 fixed header flyweight (RFC 8200). RoCEv2 frames carry no extension headers. */
public final class Ipv6 {
    public static final int VERSION_CLASS_FLOW = 0;
    public static final int PAYLOAD_LENGTH = 4;
    public static final int NEXT_HEADER = 6;
    public static final int HOP_LIMIT = 7;
    public static final int SRC = 8;
    public static final int DST = 24;
    public static final int LENGTH = 40;

    private Ipv6() {
    }

    public static int version(ByteBuf b, int off) {
        return b.getUnsignedByte(off) >>> 4;
    }

    public static int trafficClass(ByteBuf b, int off) {
        return (b.getInt(off) >>> 20) & 0xFF;
    }

    public static int dscp(ByteBuf b, int off) {
        return trafficClass(b, off) >>> 2;
    }

    public static int ecn(ByteBuf b, int off) {
        return trafficClass(b, off) & 3;
    }

    public static int flowLabel(ByteBuf b, int off) {
        return b.getInt(off) & 0xFFFFF;
    }

    public static int payloadLength(ByteBuf b, int off) {
        return b.getUnsignedShort(off + PAYLOAD_LENGTH);
    }

    public static int nextHeader(ByteBuf b, int off) {
        return b.getUnsignedByte(off + NEXT_HEADER);
    }

    public static int hopLimit(ByteBuf b, int off) {
        return b.getUnsignedByte(off + HOP_LIMIT);
    }

    /** Copies the 16-byte source address into {@code dst16}. */
    public static void src(ByteBuf b, int off, byte[] dst16) {
        b.getBytes(off + SRC, dst16, 0, 16);
    }

    public static void dst(ByteBuf b, int off, byte[] dst16) {
        b.getBytes(off + DST, dst16, 0, 16);
    }

    public static void write(ByteBuf b, int off, int trafficClass, int flowLabel, int payloadLength, int nextHeader,
                             int hopLimit, byte[] src16, byte[] dst16) {
        b.setInt(off, (6 << 28) | ((trafficClass & 0xFF) << 20) | (flowLabel & 0xFFFFF));
        b.setShort(off + PAYLOAD_LENGTH, payloadLength);
        b.setByte(off + NEXT_HEADER, nextHeader);
        b.setByte(off + HOP_LIMIT, hopLimit);
        b.setBytes(off + SRC, src16, 0, 16);
        b.setBytes(off + DST, dst16, 0, 16);
    }

    public static void setEcn(ByteBuf b, int off, int ecn) {
        int word = b.getInt(off);
        b.setInt(off, (word & ~(3 << 20)) | ((ecn & 3) << 20));
    }

    public static void setTrafficClass(ByteBuf b, int off, int tc) {
        int word = b.getInt(off);
        b.setInt(off, (word & 0xF00FFFFF) | ((tc & 0xFF) << 20));
    }

    /** RFC 5952 text of a 16-byte address, e.g. {@code fd00:10::1}. */
    public static String toString(byte[] address16) {
        try {
            String s = InetAddress.getByAddress(address16).getHostAddress();
            return compress(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("IPv6 address must be 16 bytes", e);
        }
    }

    public static byte[] parse(String text) {
        try {
            InetAddress a = InetAddress.getByName(text.trim());
            if (a instanceof Inet6Address) {
                return a.getAddress();
            }
        } catch (UnknownHostException | SecurityException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("not an IPv6 address: '" + text + "'");
    }

    /** Java prints the full form; compress the longest run of zero groups as RFC 5952 asks. */
    private static String compress(String full) {
        if (full.indexOf('.') >= 0 || full.indexOf('%') >= 0) {
            return full;
        }
        String[] groups = full.split(":");
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < groups.length; ) {
            if (groups[i].equals("0")) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLen) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestLen < 2) {
            return full;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bestStart; i++) {
            sb.append(i > 0 ? ":" : "").append(groups[i]);
        }
        sb.append("::");
        for (int i = bestStart + bestLen; i < groups.length; i++) {
            sb.append(groups[i]).append(i < groups.length - 1 ? ":" : "");
        }
        return sb.toString();
    }
}
