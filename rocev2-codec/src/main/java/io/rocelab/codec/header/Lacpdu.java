package io.rocelab.codec.header;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * An LACPDU (IEEE 802.1AX-2014 6.4.2.3), the Slow Protocols frame (EtherType 0x8809, subtype 1)
 * two ends of a link aggregation exchange: version 1, the actor's and the partner's information
 * TLVs (type 1 and 2, 20 bytes each: system priority, system MAC, key, port priority, port number,
 * state), the collector TLV (type 3, 16 bytes: CollectorMaxDelay) and the terminator (type 0,
 * length 0) with 50 reserved bytes: 110 bytes after the Ethernet header, to the Slow Protocols
 * multicast address 01:80:C2:00:00:02, never tagged, never forwarded by a bridge.
 *
 * @param actor             the sender's view of itself
 * @param partner           what the sender knows of the other end
 * @param collectorMaxDelay tens of microseconds the sender's collector may delay a frame
 */
public record Lacpdu(Info actor, Info partner, int collectorMaxDelay) {
    /** The Slow Protocols multicast address (IEEE 802.3 Annex 57B). */
    public static final long DESTINATION = 0x01_80_C2_00_00_02L;
    /** Slow Protocols subtype of LACP. */
    public static final int SUBTYPE_LACP = 1;
    public static final int VERSION = 1;
    /** Bytes after the Ethernet header. */
    public static final int LENGTH = 110;
    private static final int TLV_ACTOR = 1;
    private static final int TLV_PARTNER = 2;
    private static final int TLV_COLLECTOR = 3;
    private static final int INFO_LENGTH = 20;
    private static final int COLLECTOR_LENGTH = 16;
    private static final int ACTOR = 2;
    private static final int PARTNER = ACTOR + INFO_LENGTH;
    private static final int COLLECTOR = PARTNER + INFO_LENGTH;
    private static final int TERMINATOR = COLLECTOR + COLLECTOR_LENGTH;

    /** State bit 0: LACP_Activity (1 = active). */
    public static final int ACTIVITY = 0x01;
    /** State bit 1: LACP_Timeout (1 = short timeout, LACPDUs every second). */
    public static final int TIMEOUT = 0x02;
    /** State bit 2: Aggregation (1 = the link may be aggregated). */
    public static final int AGGREGATION = 0x04;
    /** State bit 3: Synchronization (the link is in the right aggregation). */
    public static final int SYNCHRONIZATION = 0x08;
    /** State bit 4: Collecting. */
    public static final int COLLECTING = 0x10;
    /** State bit 5: Distributing. */
    public static final int DISTRIBUTING = 0x20;
    /** State bit 6: Defaulted (the partner information is the administrative default). */
    public static final int DEFAULTED = 0x40;
    /** State bit 7: Expired (the receive machine is in EXPIRED). */
    public static final int EXPIRED = 0x80;

    /**
     * The actor or partner information TLV.
     *
     * @param systemPriority 16 bits
     * @param system         the system's MAC address
     * @param key            the operational key, 16 bits
     * @param portPriority   16 bits
     * @param port           the port number, 16 bits
     * @param state          the eight state bits ({@link #ACTIVITY} ... {@link #EXPIRED})
     */
    public record Info(int systemPriority, long system, int key, int portPriority, int port, int state) {
        /** The partner TLV of an actor that has heard nothing yet: all zero. */
        public static final Info NONE = new Info(0, 0, 0, 0, 0, 0);

        /** @return whether {@code bit} (one of the state constants) is set */
        public boolean has(int bit) {
            return (state & bit) != 0;
        }

        /** @return a copy with {@code state} */
        public Info withState(int newState) {
            return new Info(systemPriority, system, key, portPriority, port, newState & 0xFF);
        }

        /** @return the same system, key and port (what selects an aggregator), whatever the state */
        public boolean samePort(Info o) {
            return systemPriority == o.systemPriority && system == o.system && key == o.key
                && portPriority == o.portPriority && port == o.port;
        }

        /** @return IEEE 802.1AX's state string as Wireshark and teamd show it, e.g. {@code "ATGSCD.."} */
        public String stateString() {
            String letters = "ATGSCDFE";
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                sb.append((state & (1 << i)) != 0 ? letters.charAt(i) : '.');
            }
            return sb.toString();
        }

        private void write(ByteBuf b, int off, int type) {
            b.setByte(off, type);
            b.setByte(off + 1, INFO_LENGTH);
            b.setShort(off + 2, systemPriority);
            MacAddress.set(b, off + 4, system);
            b.setShort(off + 10, key);
            b.setShort(off + 12, portPriority);
            b.setShort(off + 14, port);
            b.setByte(off + 16, state);
            b.setZero(off + 17, 3);
        }

        private static Info read(ByteBuf b, int off) {
            return new Info(b.getUnsignedShort(off + 2), MacAddress.get(b, off + 4), b.getUnsignedShort(off + 10),
                b.getUnsignedShort(off + 12), b.getUnsignedShort(off + 14), b.getUnsignedByte(off + 16));
        }
    }

    /**
     * Writes the LACPDU's 110 bytes at {@code off} (just after the Ethernet header).
     */
    public void write(ByteBuf b, int off) {
        b.setByte(off, SUBTYPE_LACP);
        b.setByte(off + 1, VERSION);
        actor.write(b, off + ACTOR, TLV_ACTOR);
        partner.write(b, off + PARTNER, TLV_PARTNER);
        b.setByte(off + COLLECTOR, TLV_COLLECTOR);
        b.setByte(off + COLLECTOR + 1, COLLECTOR_LENGTH);
        b.setShort(off + COLLECTOR + 2, collectorMaxDelay);
        b.setZero(off + COLLECTOR + 4, COLLECTOR_LENGTH - 4);
        b.setZero(off + TERMINATOR, LENGTH - TERMINATOR);
    }

    /** @return a whole frame: to {@link #DESTINATION} from {@code srcMac}, EtherType 0x8809, this LACPDU */
    public ByteBuf frame(ByteBufAllocator alloc, long srcMac) {
        ByteBuf b = alloc.buffer(Ethernet.LENGTH + LENGTH);
        b.writerIndex(Ethernet.LENGTH + LENGTH);
        Ethernet.write(b, 0, DESTINATION, srcMac, EtherType.SLOW_PROTOCOLS);
        write(b, Ethernet.LENGTH);
        return b;
    }

    /** @return whether the frame at {@code b}'s reader index is an untagged Slow Protocols frame of subtype LACP */
    public static boolean isLacp(ByteBuf b) {
        int start = b.readerIndex();
        return b.readableBytes() > Ethernet.LENGTH
            && Ethernet.etherType(b, start) == EtherType.SLOW_PROTOCOLS
            && b.getUnsignedByte(start + Ethernet.LENGTH) == SUBTYPE_LACP;
    }

    /**
     * Reads an LACPDU at {@code off} of {@code len} bytes. A later version's LACPDU is read as
     * version 1 (IEEE 802.1AX 6.4.2.3: version 1 fields at their places, the rest ignored).
     *
     * @return the LACPDU, or null if it is too short or its TLVs are not where and what they must be
     */
    public static Lacpdu read(ByteBuf b, int off, int len) {
        if (len < TERMINATOR + 2 || b.getUnsignedByte(off) != SUBTYPE_LACP || b.getUnsignedByte(off + 1) < 1
            || b.getUnsignedByte(off + ACTOR) != TLV_ACTOR || b.getUnsignedByte(off + ACTOR + 1) != INFO_LENGTH
            || b.getUnsignedByte(off + PARTNER) != TLV_PARTNER || b.getUnsignedByte(off + PARTNER + 1) != INFO_LENGTH
            || b.getUnsignedByte(off + COLLECTOR) != TLV_COLLECTOR
            || b.getUnsignedByte(off + COLLECTOR + 1) != COLLECTOR_LENGTH) {
            return null;
        }
        return new Lacpdu(Info.read(b, off + ACTOR), Info.read(b, off + PARTNER),
            b.getUnsignedShort(off + COLLECTOR + 2));
    }

    /** @return the LACPDU of a whole untagged frame, or null */
    public static Lacpdu ofFrame(ByteBuf frame) {
        if (!isLacp(frame)) {
            return null;
        }
        int start = frame.readerIndex();
        return read(frame, start + Ethernet.LENGTH, frame.readableBytes() - Ethernet.LENGTH);
    }
}
