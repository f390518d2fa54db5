package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.DefaultByteBufHolder;

import java.util.Objects;

/**
 * One captured packet read from a capture file: the bytes that were captured plus what the file
 * says about them.
 *
 * <p><b>Ownership.</b> A record is a Netty {@link io.netty.buffer.ByteBufHolder}: its
 * {@link #content()} is a reference-counted buffer that {@link CaptureReader#next()} hands to the
 * caller with a reference count of 1. Whoever holds the record last releases it, exactly like a
 * Netty message: {@code record.release()} or {@code ReferenceCountUtil.release(record)}. The usual
 * pattern is
 * <pre>{@code
 * for (CaptureRecord r; (r = reader.next()) != null; ) {
 *     try {
 *         handle(r);
 *     } finally {
 *         r.release();
 *     }
 * }
 * }</pre>
 * The content's reader index starts at 0 and its readable bytes are exactly the captured bytes.
 */
public final class CaptureRecord extends DefaultByteBufHolder {

    private final int interfaceId;
    private final long timestampNanos;
    private final long originalLength;
    private final int linkType;
    private final String comment;
    private final PacketDirection direction;

    /**
     * @param interfaceId    id of the interface the packet was captured on (0 for pcap)
     * @param timestampNanos capture time in nanoseconds since 1970-01-01 00:00:00 UTC
     * @param content        the captured bytes; the record takes ownership of this reference
     * @param originalLength length of the packet on the wire; may exceed the captured length when
     *                       the capture was truncated to a snap length
     * @param linkType       link type of the interface, see {@link LinkType}
     * @param comment        packet comment (pcapng opt_comment), or null
     * @param direction      inbound/outbound as recorded by pcapng epb_flags, else UNKNOWN
     */
    public CaptureRecord(int interfaceId, long timestampNanos, ByteBuf content, long originalLength,
                         int linkType, String comment, PacketDirection direction) {
        super(Objects.requireNonNull(content, "content"));
        this.interfaceId = interfaceId;
        this.timestampNanos = timestampNanos;
        this.originalLength = originalLength;
        this.linkType = linkType;
        this.comment = comment;
        this.direction = Objects.requireNonNull(direction, "direction");
    }

    /** Id of the interface the packet was captured on: 0 for classic pcap, the IDB index for pcapng. */
    public int interfaceId() {
        return interfaceId;
    }

    /** Capture time in nanoseconds since 1970-01-01 00:00:00 UTC, converted from the file's resolution. */
    public long timestampNanos() {
        return timestampNanos;
    }

    /** Number of bytes captured, i.e. {@code content().readableBytes()}. */
    public int capturedLength() {
        return content().readableBytes();
    }

    /** Length of the packet on the wire; larger than {@link #capturedLength()} if it was truncated. */
    public long originalLength() {
        return originalLength;
    }

    /** Link type of the packet's interface, see {@link LinkType}. */
    public int linkType() {
        return linkType;
    }

    /**
     * The packet comment (pcapng opt_comment), or null if there is none. A block holding several
     * comments yields them joined by a line feed.
     */
    public String comment() {
        return comment;
    }

    /** Direction recorded by pcapng epb_flags; {@link PacketDirection#UNKNOWN} when not recorded. */
    public PacketDirection direction() {
        return direction;
    }

    @Override
    public CaptureRecord replace(ByteBuf content) {
        return new CaptureRecord(interfaceId, timestampNanos, content, originalLength, linkType, comment, direction);
    }

    @Override
    public CaptureRecord copy() {
        return (CaptureRecord) super.copy();
    }

    @Override
    public CaptureRecord duplicate() {
        return (CaptureRecord) super.duplicate();
    }

    @Override
    public CaptureRecord retainedDuplicate() {
        return (CaptureRecord) super.retainedDuplicate();
    }

    @Override
    public CaptureRecord retain() {
        super.retain();
        return this;
    }

    @Override
    public CaptureRecord retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public CaptureRecord touch() {
        super.touch();
        return this;
    }

    @Override
    public CaptureRecord touch(Object hint) {
        super.touch(hint);
        return this;
    }

    /** Records are equal when every field and the readable content bytes are equal. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof CaptureRecord other)) {
            return false;
        }
        return interfaceId == other.interfaceId
                && timestampNanos == other.timestampNanos
                && originalLength == other.originalLength
                && linkType == other.linkType
                && Objects.equals(comment, other.comment)
                && direction == other.direction
                && content().equals(other.content());
    }

    @Override
    public int hashCode() {
        return Objects.hash(interfaceId, timestampNanos, originalLength, linkType, comment, direction, content());
    }

    @Override
    public String toString() {
        String head = "CaptureRecord(if=" + interfaceId
                + ", t=" + timestampNanos + "ns"
                + ", len=" + originalLength
                + ", linktype=" + LinkType.name(linkType)
                + (direction == PacketDirection.UNKNOWN ? "" : ", " + direction)
                + (comment == null ? "" : ", comment=\"" + comment + "\"");
        if (refCnt() == 0) {
            return head + ", released)";
        }
        ByteBuf data = content();
        int shown = Math.min(data.readableBytes(), 16);
        return head + ", caplen=" + data.readableBytes()
                + ", data=" + ByteBufUtil.hexDump(data, data.readerIndex(), shown)
                + (shown < data.readableBytes() ? "..." : "")
                + ")";
    }
}
