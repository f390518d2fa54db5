package io.rocelab.sw.mlag;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * What two MLAG peers tell each other over their peer link, in the spirit of SONiC's ICCP
 * (RFC 7275) messages between iccpd instances, but as one small Ethernet frame on the peer link
 * itself (EtherType 0x88B5, IEEE 802's Local Experimental, to a link-local group address no
 * bridge forwards): so it works the same between two switches in one process and between two
 * {@code rocelab switch} processes, needs no IP stack, and shows in a capture of the peer link.
 *
 * <pre>
 *   "MLAG" | version 1 | type | domain id (2) | sender's source_ip (4) | body
 *   type 1, state:  count (1), then per shared port channel: its number (2), up (1)
 *   type 2, MACs:   count (2), then per MAC: VID (2), MAC (6), port channel number (2; 0 = not on a
 *                   shared port channel: reach it over the peer link)
 * </pre>
 */
public final class MlagMessage {
    public static final int ETHER_TYPE = 0x88B5;
    /** A link-local group address (IEEE 802.1Q Table 8-1's reserved range): never forwarded by a bridge. */
    public static final long DESTINATION = 0x01_80_C2_00_00_0FL;
    public static final int TYPE_STATE = 1;
    public static final int TYPE_MACS = 2;
    /** MAC entries in one frame, so that it stays within a 1500-byte MTU. */
    public static final int MACS_PER_FRAME = 120;
    private static final int MAGIC = 0x4D4C_4147; // "MLAG"
    private static final int HEADER = 12;
    private static final int MAC_ENTRY = 10;

    /** One learned MAC: its FDB key (VID above the MAC) and the shared port channel's number, or 0. */
    public record Mac(long fdbKey, int portChannel) {
    }

    /** A decoded message. */
    public record Decoded(int type, int domainId, int sourceIp, int[] portChannels, boolean[] up, List<Mac> macs) {
    }

    private MlagMessage() {
    }

    private static ByteBuf header(ByteBufAllocator alloc, long srcMac, int type, int domainId, int sourceIp, int body) {
        int length = Math.max(Ethernet.MIN_FRAME, Ethernet.LENGTH + HEADER + body);
        ByteBuf b = alloc.buffer(length);
        b.writerIndex(length);
        b.setZero(0, b.writerIndex());
        Ethernet.write(b, 0, DESTINATION, srcMac, ETHER_TYPE);
        int o = Ethernet.LENGTH;
        b.setInt(o, MAGIC);
        b.setByte(o + 4, 1);
        b.setByte(o + 5, type);
        b.setShort(o + 6, domainId);
        b.setInt(o + 8, sourceIp);
        return b;
    }

    /** @return a state message: each shared port channel's number and whether it is up here */
    public static ByteBuf state(ByteBufAllocator alloc, long srcMac, int domainId, int sourceIp, int[] portChannels,
                                boolean[] up) {
        ByteBuf b = header(alloc, srcMac, TYPE_STATE, domainId, sourceIp, 1 + 3 * portChannels.length);
        int o = Ethernet.LENGTH + HEADER;
        b.setByte(o, portChannels.length);
        for (int i = 0; i < portChannels.length; i++) {
            b.setShort(o + 1 + 3 * i, portChannels[i]);
            b.setByte(o + 3 + 3 * i, up[i] ? 1 : 0);
        }
        return b;
    }

    /** @return a MAC message of at most {@link #MACS_PER_FRAME} entries */
    public static ByteBuf macs(ByteBufAllocator alloc, long srcMac, int domainId, int sourceIp, List<Mac> macs) {
        ByteBuf b = header(alloc, srcMac, TYPE_MACS, domainId, sourceIp, 2 + MAC_ENTRY * macs.size());
        int o = Ethernet.LENGTH + HEADER;
        b.setShort(o, macs.size());
        for (int i = 0; i < macs.size(); i++) {
            int e = o + 2 + MAC_ENTRY * i;
            b.setShort(e, (int) (macs.get(i).fdbKey() >>> 48));
            MacAddress.set(b, e + 2, macs.get(i).fdbKey() & 0xFFFF_FFFF_FFFFL);
            b.setShort(e + 8, macs.get(i).portChannel());
        }
        return b;
    }

    /** @return whether the frame is an MLAG message (by its address and EtherType) */
    public static boolean is(ByteBuf frame) {
        int s = frame.readerIndex();
        return frame.readableBytes() >= Ethernet.LENGTH + HEADER && Ethernet.dst(frame, s) == DESTINATION
            && Ethernet.etherType(frame, s) == ETHER_TYPE;
    }

    /** @return the message, or null if it is not a well-formed one */
    public static Decoded decode(ByteBuf frame) {
        int o = frame.readerIndex() + Ethernet.LENGTH;
        int end = frame.writerIndex();
        if (end - o < HEADER + 1 || frame.getInt(o) != MAGIC || frame.getUnsignedByte(o + 4) != 1) {
            return null;
        }
        int type = frame.getUnsignedByte(o + 5);
        int domain = frame.getUnsignedShort(o + 6);
        int source = frame.getInt(o + 8);
        int body = o + HEADER;
        if (type == TYPE_STATE) {
            int n = frame.getUnsignedByte(body);
            if (body + 1 + 3 * n > end) {
                return null;
            }
            int[] pcs = new int[n];
            boolean[] up = new boolean[n];
            for (int i = 0; i < n; i++) {
                pcs[i] = frame.getUnsignedShort(body + 1 + 3 * i);
                up[i] = frame.getUnsignedByte(body + 3 + 3 * i) != 0;
            }
            return new Decoded(type, domain, source, pcs, up, List.of());
        }
        if (type == TYPE_MACS) {
            if (body + 2 > end) {
                return null;
            }
            int n = frame.getUnsignedShort(body);
            if (n > MACS_PER_FRAME || body + 2 + MAC_ENTRY * n > end) {
                return null;
            }
            List<Mac> macs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int e = body + 2 + MAC_ENTRY * i;
                long key = ((long) frame.getUnsignedShort(e) << 48) | MacAddress.get(frame, e + 2);
                macs.add(new Mac(key, frame.getUnsignedShort(e + 8)));
            }
            return new Decoded(type, domain, source, new int[0], new boolean[0], macs);
        }
        return null;
    }
}
