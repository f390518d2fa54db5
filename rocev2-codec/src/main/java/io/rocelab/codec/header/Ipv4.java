package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;

/** IPv4 header flyweight (RFC 791), with the DSCP/ECN split of the TOS byte (RFC 2474, RFC 3168). */
public final class Ipv4 {
    public static final int VERSION_IHL = 0;
    public static final int TOS = 1;
    public static final int TOTAL_LENGTH = 2;
    public static final int ID = 4;
    public static final int FLAGS_FRAGMENT = 6;
    public static final int TTL = 8;
    public static final int PROTOCOL = 9;
    public static final int CHECKSUM = 10;
    public static final int SRC = 12;
    public static final int DST = 16;
    public static final int MIN_LENGTH = 20;

    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    /** Don't Fragment, in the flags/fragment-offset word. */
    public static final int FLAG_DF = 0x4000;
    public static final int FLAG_MF = 0x2000;
    public static final int FRAGMENT_OFFSET_MASK = 0x1FFF;

    private Ipv4() {
    }

    public static int version(ByteBuf b, int off) {
        return b.getUnsignedByte(off) >>> 4;
    }

    /** Header length in bytes (IHL × 4). */
    public static int headerLength(ByteBuf b, int off) {
        return (b.getUnsignedByte(off) & 0xF) * 4;
    }

    public static int tos(ByteBuf b, int off) {
        return b.getUnsignedByte(off + TOS);
    }

    public static int dscp(ByteBuf b, int off) {
        return tos(b, off) >>> 2;
    }

    public static int ecn(ByteBuf b, int off) {
        return tos(b, off) & 3;
    }

    public static int totalLength(ByteBuf b, int off) {
        return b.getUnsignedShort(off + TOTAL_LENGTH);
    }

    public static int id(ByteBuf b, int off) {
        return b.getUnsignedShort(off + ID);
    }

    /** Flags and fragment offset word. */
    public static int flagsFragment(ByteBuf b, int off) {
        return b.getUnsignedShort(off + FLAGS_FRAGMENT);
    }

    public static boolean isFragment(ByteBuf b, int off) {
        int ff = flagsFragment(b, off);
        return (ff & FLAG_MF) != 0 || (ff & FRAGMENT_OFFSET_MASK) != 0;
    }

    public static int ttl(ByteBuf b, int off) {
        return b.getUnsignedByte(off + TTL);
    }

    public static int protocol(ByteBuf b, int off) {
        return b.getUnsignedByte(off + PROTOCOL);
    }

    public static int checksum(ByteBuf b, int off) {
        return b.getUnsignedShort(off + CHECKSUM);
    }

    public static int src(ByteBuf b, int off) {
        return b.getInt(off + SRC);
    }

    public static int dst(ByteBuf b, int off) {
        return b.getInt(off + DST);
    }

    /** Writes a header without options and with a correct checksum. */
    /**
     * Writes a 20-byte header (no options) with its checksum. The checksum is summed from the
     * arguments, not read back from the buffer, and the header goes out in five 32-bit writes.
     */
    public static void write(ByteBuf b, int off, int tos, int totalLength, int id, int flagsFragment, int ttl,
                             int protocol, int src, int dst) {
        final int word0 = 0x4500 | (tos & 0xFF);
        final int length = totalLength & 0xFFFF;
        final int ident = id & 0xFFFF;
        final int frag = flagsFragment & 0xFFFF;
        final int ttlProto = ((ttl & 0xFF) << 8) | (protocol & 0xFF);
        long sum = (long) word0 + length + ident + frag + ttlProto
                + (src >>> 16) + (src & 0xFFFF) + (dst >>> 16) + (dst & 0xFFFF);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        final int checksum = (int) (~sum & 0xFFFF);
        b.setInt(off + VERSION_IHL, (word0 << 16) | length);
        b.setInt(off + ID, (ident << 16) | frag);
        b.setInt(off + TTL, (ttlProto << 16) | checksum);
        b.setInt(off + SRC, src);
        b.setInt(off + DST, dst);
    }

    /** The RFC 1071 one's-complement checksum over the header as it stands (checksum field included). */
    public static int computeChecksum(ByteBuf b, int off) {
        int len = headerLength(b, off);
        long sum = 0;
        for (int i = 0; i < len; i += 2) {
            if (i != CHECKSUM) {
                sum += b.getUnsignedShort(off + i);
            }
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }

    public static boolean checksumOk(ByteBuf b, int off) {
        return computeChecksum(b, off) == checksum(b, off);
    }

    public static void updateChecksum(ByteBuf b, int off) {
        b.setShort(off + CHECKSUM, computeChecksum(b, off));
    }

    /**
     * Sets the ECN field and patches the checksum incrementally (RFC 1624), as a switch marking
     * CE does.
     */
    public static void setEcn(ByteBuf b, int off, int ecn) {
        int oldWord = b.getUnsignedShort(off);
        b.setByte(off + TOS, (tos(b, off) & ~3) | (ecn & 3));
        patchChecksum(b, off, oldWord, b.getUnsignedShort(off));
    }

    public static void setDscp(ByteBuf b, int off, int dscp) {
        int oldWord = b.getUnsignedShort(off);
        b.setByte(off + TOS, ((dscp & 0x3F) << 2) | ecn(b, off));
        patchChecksum(b, off, oldWord, b.getUnsignedShort(off));
    }

    /** Decrements the TTL and patches the checksum, as a router does. */
    public static void decrementTtl(ByteBuf b, int off) {
        int oldWord = b.getUnsignedShort(off + TTL);
        b.setByte(off + TTL, ttl(b, off) - 1);
        patchChecksum(b, off, oldWord, b.getUnsignedShort(off + TTL));
    }

    /** RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'). */
    private static void patchChecksum(ByteBuf b, int off, int oldWord, int newWord) {
        int sum = (~checksum(b, off) & 0xFFFF) + (~oldWord & 0xFFFF) + newWord;
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        b.setShort(off + CHECKSUM, ~sum & 0xFFFF);
    }

    public static String toString(int address) {
        return ((address >>> 24) & 0xFF) + "." + ((address >>> 16) & 0xFF) + "." + ((address >>> 8) & 0xFF) + "."
                + (address & 0xFF);
    }

    public static int parse(String text) {
        String[] parts = text.trim().split("\\.");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
        }
        int a = 0;
        for (String p : parts) {
            int v;
            try {
                v = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
            }
            if (v < 0 || v > 255) {
                throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
            }
            a = (a << 8) | v;
        }
        return a;
    }
}
