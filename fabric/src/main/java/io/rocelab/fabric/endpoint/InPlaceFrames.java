package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;

/**
 * Turns a received datagram into a frame without copying it: the rebuilt Ethernet/IPv4/UDP headers
 * ({@link DatagramFrames#HEADERS} bytes) go into the read buffer just before the datagram, over the
 * tail of the datagram read before it (a GRO read holds its datagrams back to back, recvmmsg's slots
 * lie back to back too). Those bytes may be overwritten once that datagram's frame is released, and
 * a NIC releases every frame before its {@code onFrame} returns; so in a GRO read every datagram but
 * the first, which has nothing before it, becomes a frame in place. The copy it saves was about 5 %
 * of a receiving loop in {@code ib_write_bw} over veth (async-profiler, 64 KB messages).
 *
 * <p>A receiver that keeps a frame keeps its bytes: {@link #returned()} sees the read buffer's
 * reference count still raised, and the datagram after it is copied instead. Owner thread only.
 */
final class InPlaceFrames {
    /** The read buffer of the last datagram asked about. */
    private ByteBuf buffer;
    /** From this offset of {@link #buffer} up to the next datagram, no frame is held. */
    private int freeFrom;
    /** Whether a frame over {@link #buffer} was handed out and not yet returned. */
    private boolean lent;
    /** The offset just past that frame's datagram. */
    private int lentEnd;
    /** The read buffer's reference count before that frame was made. */
    private int refCntBefore;

    /**
     * A frame over {@code payload}'s bytes with room for the headers before them, if that room is
     * free; the caller writes the headers, hands the frame on and then calls {@link #returned()}.
     *
     * @param payload a received datagram: a slice of its read buffer (as Netty hands them out)
     * @return the frame (the caller owns one reference; its headers are not written yet), or
     *         {@code null} if the datagram has to be copied
     */
    ByteBuf frame(ByteBuf payload) {
        if (lent) {
            returned(); // the last receiver did not return normally: its bytes count as kept
        }
        // a slice straight of the read buffer; not a buffer of its own (NIO reads), nor one behind a
        // leak-detection wrapper, whose tracker must see the last release
        final ByteBuf root = payload.unwrap();
        if (root == null || root.unwrap() != null || payload.capacity() >= root.capacity()
            || !root.hasMemoryAddress() || !payload.hasMemoryAddress()) {
            return null;
        }
        final long at = payload.memoryAddress() + payload.readerIndex() - root.memoryAddress();
        final int length = payload.readableBytes();
        if (at < 0 || at + length > root.capacity()) {
            return null;
        }
        final int offset = (int) at;
        if (root != buffer || offset < freeFrom) {
            // another read buffer, or the same one reused for a new read: it was freed whole, so
            // nothing in it is held
            buffer = root;
            freeFrom = 0;
        }
        if (offset - freeFrom < DatagramFrames.HEADERS) {
            return null;
        }
        refCntBefore = root.refCnt();
        final ByteBuf frame = root.retainedSlice(offset - DatagramFrames.HEADERS, DatagramFrames.HEADERS + length);
        lent = true;
        lentEnd = offset + length;
        return frame;
    }

    /**
     * Notes that the receiver of the last frame has returned: if it kept the frame, the bytes up to
     * the frame's end stay untouched.
     */
    void returned() {
        if (!lent) {
            return;
        }
        lent = false;
        if (buffer.refCnt() != refCntBefore) {
            freeFrom = lentEnd;
        }
    }
}
