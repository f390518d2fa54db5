package io.rocelab.codec.routing;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * BGP-4 messages (RFC 4271 section 4) as they travel inside a TCP segment: the 19-byte header (16
 * bytes of ones as the marker, length, type) and OPEN, UPDATE, NOTIFICATION or KEEPALIVE.
 *
 * <p>What is encoded: OPEN with the multiprotocol capabilities for IPv4 and IPv6 unicast (RFC 4760)
 * and the four-octet AS number capability (RFC 6793; a speaker whose AS
 * does not fit two octets puts AS_TRANS 23456 in My Autonomous System), so AS_PATH carries four-octet
 * AS numbers as between two "NEW" speakers; UPDATE with withdrawn routes, ORIGIN (IGP), AS_PATH (one
 * AS_SEQUENCE) and NEXT_HOP, and IPv4 NLRI, IPv6 NLRI in MP_REACH_NLRI / MP_UNREACH_NLRI (RFC 4760); NOTIFICATION with code and subcode. Other path attributes
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
     * @param withdrawn prefixes no longer reachable through the sender (IPv6 ones in MP_UNREACH_NLRI)
     * @param asPath    the AS_SEQUENCE, the sender's own AS first (empty when only withdrawing)
     * @param nextHop   NEXT_HOP (0 when only withdrawing); IPv6 NLRI get it IPv4-mapped in
     *                  MP_REACH_NLRI ({@code ::ffff:a.b.c.d}, the session being IPv4)
     * @param nlri      prefixes reachable through the sender with this path (IPv6 ones in MP_REACH_NLRI)
     */
    record Update(List<RoutePrefix> withdrawn, List<Long> asPath, int nextHop, List<RoutePrefix> nlri)
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
            // one Capabilities parameter (type 2, RFC 5492): multiprotocol (code 1, RFC 4760) IPv4 and IPv6
            // unicast, and the four-octet AS (code 65, RFC 6793)
            b.writeByte(20);
            b.writeByte(2);
            b.writeByte(18);
            b.writeByte(1).writeByte(4).writeShort(1).writeByte(0).writeByte(1);
            b.writeByte(1).writeByte(4).writeShort(2).writeByte(0).writeByte(1);
            b.writeByte(65);
            b.writeByte(4);
            b.writeInt((int) o.asn());
        } else if (m instanceof Update u) {
            List<RoutePrefix> withdrawn4 = u.withdrawn().stream().filter(p -> !p.v6()).toList();
            List<RoutePrefix> withdrawn6 = u.withdrawn().stream().filter(RoutePrefix::v6).toList();
            List<RoutePrefix> nlri4 = u.nlri().stream().filter(p -> !p.v6()).toList();
            List<RoutePrefix> nlri6 = u.nlri().stream().filter(RoutePrefix::v6).toList();
            b.writeShort(prefixBytes(withdrawn4));
            withdrawn4.forEach(p -> writePrefix(b, p));
            int attrLengthAt = b.writerIndex();
            b.writeShort(0);
            int attrStart = b.writerIndex();
            if (!u.nlri().isEmpty()) {
                // ORIGIN: well-known mandatory, transitive (flags 0x40), IGP
                b.writeByte(0x40).writeByte(1).writeByte(1).writeByte(0);
                int asPathLength = 2 + 4 * u.asPath().size();
                if (asPathLength > 255) {
                    b.writeByte(0x50).writeByte(2).writeShort(asPathLength);
                } else {
                    b.writeByte(0x40).writeByte(2).writeByte(asPathLength);
                }
                b.writeByte(2).writeByte(u.asPath().size());
                u.asPath().forEach(a -> b.writeInt(a.intValue()));
                if (!nlri4.isEmpty()) {
                    b.writeByte(0x40).writeByte(3).writeByte(4).writeInt(u.nextHop());
                }
            }
            if (!nlri6.isEmpty()) {
                // MP_REACH_NLRI (RFC 4760 3): optional non-transitive, extended length
                b.writeByte(0x90).writeByte(14).writeShort(5 + 16 + prefixBytes(nlri6));
                b.writeShort(2).writeByte(1).writeByte(16);
                b.writeLong(0).writeInt(0xFFFF).writeInt(u.nextHop());
                b.writeByte(0);
                nlri6.forEach(p -> writePrefix(b, p));
            }
            if (!withdrawn6.isEmpty()) {
                // MP_UNREACH_NLRI (RFC 4760 4)
                b.writeByte(0x90).writeByte(15).writeShort(3 + prefixBytes(withdrawn6));
                b.writeShort(2).writeByte(1);
                withdrawn6.forEach(p -> writePrefix(b, p));
            }
            b.setShort(attrLengthAt, b.writerIndex() - attrStart);
            nlri4.forEach(p -> writePrefix(b, p));
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
                List<RoutePrefix> withdrawn = new ArrayList<>(readPrefixes(b, p + 2, p + 2 + wlen, false));
                int q = p + 2 + wlen;
                int alen = b.getUnsignedShort(q);
                q += 2;
                int attrEnd = q + alen;
                List<Long> path = new ArrayList<>();
                List<RoutePrefix> nlri6 = new ArrayList<>();
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
                    } else if (atype == 14 && b.getUnsignedShort(v) == 2) {
                        int nhLen = b.getUnsignedByte(v + 3);
                        if (nhLen >= 16 && nextHop == 0) {
                            nextHop = b.getInt(v + 4 + 12); // IPv4-mapped
                        }
                        nlri6.addAll(readPrefixes(b, v + 4 + nhLen + 1, v + vlen, true));
                    } else if (atype == 15 && b.getUnsignedShort(v) == 2) {
                        withdrawn.addAll(readPrefixes(b, v + 3, v + vlen, true));
                    }
                    q = v + vlen;
                }
                List<RoutePrefix> nlri = new ArrayList<>(readPrefixes(b, attrEnd, end, false));
                nlri.addAll(nlri6);
                yield new Update(withdrawn, path, nextHop, nlri);
            }
            case NOTIFICATION -> new Notification(b.getUnsignedByte(p), b.getUnsignedByte(p + 1));
            case KEEPALIVE -> new Keepalive();
            default -> throw new IllegalArgumentException("BGP message type " + type);
        };
    }

    private static int prefixBytes(List<RoutePrefix> prefixes) {
        int n = 0;
        for (RoutePrefix p : prefixes) {
            n += 1 + (p.length() + 7) / 8;
        }
        return n;
    }

    /** RFC 4271 section 4.3 (and RFC 4760 section 5): the length in bits, then just enough octets. */
    private static void writePrefix(ByteBuf b, RoutePrefix p) {
        b.writeByte(p.length());
        int bytes = (p.length() + 7) / 8;
        if (p instanceof Ipv4Prefix v4) {
            for (int i = 0; i < bytes; i++) {
                b.writeByte(v4.address() >>> (24 - 8 * i));
            }
        } else {
            b.writeBytes(((Ipv6Prefix) p).bytes(), 0, bytes);
        }
    }

    private static List<RoutePrefix> readPrefixes(ByteBuf b, int from, int to, boolean v6) {
        List<RoutePrefix> out = new ArrayList<>();
        int q = from;
        while (q < to) {
            int len = b.getUnsignedByte(q);
            int bytes = (len + 7) / 8;
            if (v6) {
                long high = 0;
                long low = 0;
                for (int i = 0; i < 16; i++) {
                    long octet = i < bytes ? b.getUnsignedByte(q + 1 + i) : 0;
                    if (i < 8) {
                        high = high << 8 | octet;
                    } else {
                        low = low << 8 | octet;
                    }
                }
                out.add(new Ipv6Prefix(high, low, len));
            } else {
                int a = 0;
                for (int i = 0; i < bytes; i++) {
                    a |= b.getUnsignedByte(q + 1 + i) << (24 - 8 * i);
                }
                out.add(new Ipv4Prefix(a, len));
            }
            q += 1 + bytes;
        }
        return out;
    }
}
