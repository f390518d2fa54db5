package io.rocelab.codec.routing;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * BGP-4 messages (RFC 4271 section 4) as they travel inside a TCP segment: the 19-byte header (16
 * bytes of ones as the marker, length, type) and OPEN, UPDATE, NOTIFICATION or KEEPALIVE.
 *
 * <p>What is encoded: OPEN with the four-octet AS number capability (RFC 6793; a speaker whose AS
 * does not fit two octets puts AS_TRANS 23456 in My Autonomous System), so AS_PATH carries four-octet
 * AS numbers as between two "NEW" speakers; UPDATE with withdrawn routes, ORIGIN (IGP), AS_PATH (one
 * AS_SEQUENCE) and NEXT_HOP, and IPv4 NLRI; NOTIFICATION with code and subcode. Other path attributes
 * and capabilities are skipped when decoding. Stateless: the codec holds wire formats only.
 */
public sealed interface BgpMessage permits BgpMessage.Open, BgpMessage.Update, BgpMessage.Notification,
        BgpMessage.Keepalive {
    /** Header: marker (16), length (2), type (1). */
    int HEADER = 19;
    int OPEN = 1;
    int UPDATE = 2;
    int NOTIFICATION = 3;
    int KEEPALIVE = 4;
    /** RFC 6793 section 9: the AS a NEW speaker with a four-octet AS puts in OPEN's two-octet field. */
    int AS_TRANS = 23456;
    /** RFC 4271 section 4.5 error codes used here. */
    int HOLD_TIMER_EXPIRED = 4;
    int CEASE = 6;

    /** @return the message type (1..4) */
    int type();

    /**
     * @param asn            the sender's AS (four octets)
     * @param holdSeconds    the proposed hold time, 0 or at least 3
     * @param bgpIdentifier  the router ID
     */
    record Open(long asn, int holdSeconds, int bgpIdentifier) implements BgpMessage {
        @Override
        public int type() {
            return OPEN;
        }
    }

    /**
     * @param withdrawn prefixes no longer reachable through the sender
     * @param asPath    the AS_SEQUENCE, the sender's own AS first (empty when only withdrawing)
     * @param nextHop   NEXT_HOP (0 when only withdrawing)
     * @param nlri      prefixes reachable through the sender with this path
     */
    record Update(List<Ipv4Prefix> withdrawn, List<Long> asPath, int nextHop, List<Ipv4Prefix> nlri)
            implements BgpMessage {
        public Update {
            withdrawn = List.copyOf(withdrawn);
            asPath = List.copyOf(asPath);
            nlri = List.copyOf(nlri);
        }

        @Override
        public int type() {
            return UPDATE;
        }
    }

    /** @param code error code (6: Cease), {@code subcode} its subcode */
    record Notification(int code, int subcode) implements BgpMessage {
        @Override
        public int type() {
            return NOTIFICATION;
        }
    }

    /** The KEEPALIVE: the header alone. */
    record Keepalive() implements BgpMessage {
        @Override
        public int type() {
            return KEEPALIVE;
        }
    }

    /** Writes {@code m} at {@code b}'s writer index. @return bytes written */
    static int write(BgpMessage m, ByteBuf b) {
        int start = b.writerIndex();
        for (int i = 0; i < 16; i++) {
            b.writeByte(0xFF);
        }
        int lengthAt = b.writerIndex();
        b.writeShort(0);
        b.writeByte(m.type());
        if (m instanceof Open o) {
            b.writeByte(4);
            b.writeShort(o.asn() > 0xFFFF ? AS_TRANS : (int) o.asn());
            b.writeShort(o.holdSeconds());
            b.writeInt(o.bgpIdentifier());
            // one Capabilities parameter (type 2) holding the four-octet AS capability (code 65)
            b.writeByte(8);
            b.writeByte(2);
            b.writeByte(6);
            b.writeByte(65);
            b.writeByte(4);
            b.writeInt((int) o.asn());
    } else if (m instanceof Update u) {
            b.writeShort(prefixBytes(u.withdrawn()));
            u.withdrawn().forEach(p -> writePrefix(b, p));
            if (u.nlri().isEmpty()) {
                b.writeShort(0);
            } else {
                int asPathLength = 2 + 4 * u.asPath().size();
                b.writeShort(4 + 3 + asPathLength + 3 + 4 + (asPathLength > 255 ? 1 : 0));
                // ORIGIN: well-known mandatory, transitive (flags 0x40), IGP
                b.writeByte(0x40).writeByte(1).writeByte(1).writeByte(0);
                if (asPathLength > 255) {
                    b.writeByte(0x50).writeByte(2).writeShort(asPathLength);
                } else {
                    b.writeByte(0x40).writeByte(2).writeByte(asPathLength);
                }
                b.writeByte(2).writeByte(u.asPath().size());
                u.asPath().forEach(a -> b.writeInt(a.intValue()));
                b.writeByte(0x40).writeByte(3).writeByte(4).writeInt(u.nextHop());
                u.nlri().forEach(p -> writePrefix(b, p));
            }
    } else if (m instanceof Notification n) {
            b.writeByte(n.code());
                b.writeByte(n.subcode());
        }
        int length = b.writerIndex() - start;
        b.setShort(lengthAt, length);
        return length;
    }

    /**
     * Reads one message at {@code off}.
     *
     * @throws IllegalArgumentException if it is not a well-formed message of the kinds above
     */
    static BgpMessage read(ByteBuf b, int off) {
        for (int i = 0; i < 16; i++) {
            if (b.getUnsignedByte(off + i) != 0xFF) {
                throw new IllegalArgumentException("BGP marker is not all ones");
            }
        }
        int length = b.getUnsignedShort(off + 16);
        int type = b.getUnsignedByte(off + 18);
        if (length < HEADER || length > 4096 || off + length > b.writerIndex()) {
            throw new IllegalArgumentException("BGP message length " + length);
        }
        int p = off + HEADER;
        int end = off + length;
        return switch (type) {
            case OPEN -> {
                long asn = b.getUnsignedShort(p + 1);
                int hold = b.getUnsignedShort(p + 3);
                int id = b.getInt(p + 5);
                int optLen = b.getUnsignedByte(p + 9);
                int q = p + 10;
                int optEnd = Math.min(end, q + optLen);
                while (q + 2 <= optEnd) {
                    int ptype = b.getUnsignedByte(q);
                    int plen = b.getUnsignedByte(q + 1);
                    if (ptype == 2) {
                        for (int c = q + 2; c + 2 <= q + 2 + plen; ) {
                            int code = b.getUnsignedByte(c);
                            int clen = b.getUnsignedByte(c + 1);
                            if (code == 65 && clen == 4) {
                                asn = b.getUnsignedInt(c + 2);
                            }
                            c += 2 + clen;
                        }
                    }
                    q += 2 + plen;
                }
                yield new Open(asn, hold, id);
            }
            case UPDATE -> {
                int wlen = b.getUnsignedShort(p);
                List<Ipv4Prefix> withdrawn = readPrefixes(b, p + 2, p + 2 + wlen);
                int q = p + 2 + wlen;
                int alen = b.getUnsignedShort(q);
                q += 2;
                int attrEnd = q + alen;
                List<Long> path = new ArrayList<>();
                int nextHop = 0;
                while (q < attrEnd) {
                    int flags = b.getUnsignedByte(q);
                    int atype = b.getUnsignedByte(q + 1);
                    boolean extended = (flags & 0x10) != 0;
                    int vlen = extended ? b.getUnsignedShort(q + 2) : b.getUnsignedByte(q + 2);
                    int v = q + (extended ? 4 : 3);
                    if (atype == 2) {
                        for (int s = v; s < v + vlen; ) {
                            int count = b.getUnsignedByte(s + 1);
                            for (int i = 0; i < count; i++) {
                                path.add(b.getUnsignedInt(s + 2 + 4 * i));
                            }
                            s += 2 + 4 * count;
                        }
                    } else if (atype == 3) {
                        nextHop = b.getInt(v);
                    }
                    q = v + vlen;
                }
                yield new Update(withdrawn, path, nextHop, readPrefixes(b, attrEnd, end));
            }
            case NOTIFICATION -> new Notification(b.getUnsignedByte(p), b.getUnsignedByte(p + 1));
            case KEEPALIVE -> new Keepalive();
            default -> throw new IllegalArgumentException("BGP message type " + type);
        };
    }

    private static int prefixBytes(List<Ipv4Prefix> prefixes) {
        int n = 0;
        for (Ipv4Prefix p : prefixes) {
            n += 1 + (p.length() + 7) / 8;
        }
        return n;
    }

    /** RFC 4271 section 4.3: the length in bits, then just enough octets to hold the prefix. */
    private static void writePrefix(ByteBuf b, Ipv4Prefix p) {
        b.writeByte(p.length());
        for (int i = 0; i < (p.length() + 7) / 8; i++) {
            b.writeByte(p.address() >>> (24 - 8 * i));
        }
    }

    private static List<Ipv4Prefix> readPrefixes(ByteBuf b, int from, int to) {
        List<Ipv4Prefix> out = new ArrayList<>();
        int q = from;
        while (q < to) {
            int len = b.getUnsignedByte(q);
            int bytes = (len + 7) / 8;
            int a = 0;
            for (int i = 0; i < bytes; i++) {
                a |= b.getUnsignedByte(q + 1 + i) << (24 - 8 * i);
            }
            out.add(new Ipv4Prefix(a, len));
            q += 1 + bytes;
        }
        return out;
    }
}
