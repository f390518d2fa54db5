package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;

import java.io.IOException;

/**
 * Writes packets to a capture file: {@link PcapWriter} for one port as classic pcap,
 * {@link PcapngWriter} for a whole lab as pcapng with one interface per port and packet comments.
 *
 * <p>Interfaces are added first and numbered from 0 in the order added; each packet then names
 * the interface it was seen on. A frame longer than its interface's snap length is cut to it, the
 * original length being kept in the record.
 *
 * <p>{@link #write} never releases the frame and never moves its reader index: the caller still
 * owns it. A writer is not thread-safe; give it a single owner thread.
 */
public interface CaptureWriter extends AutoCloseable {

    /** Snap length used when an interface is added with 0 and the format needs a number (pcap). */
    int DEFAULT_SNAPLEN = 262_144;

    /**
     * Adds a capture interface (a port).
     *
     * @param name               interface name shown by Wireshark, e.g. "leaf1:eth3"; may be null
     * @param linkType           LINKTYPE_ value of the frames, see {@link LinkType}
     * @param snapLen            maximum bytes kept per frame; 0 for no limit
     * @param speedBitsPerSecond line rate, or 0 if unknown
     * @param description        free text shown by Wireshark; may be null
     * @return the id to pass to {@link #write}: 0 for the first interface, then 1, 2, ...
     * @throws IllegalStateException    if the format cannot hold another interface (pcap holds one)
     * @throws IllegalArgumentException if a value cannot be encoded
     * @throws IOException              if writing fails
     */
    int addInterface(String name, int linkType, int snapLen, long speedBitsPerSecond, String description)
            throws IOException;

    /**
     * Writes one frame with no recorded direction.
     *
     * @param interfaceId    an id returned by {@link #addInterface}
     * @param timestampNanos capture time, nanoseconds since 1970-01-01 00:00:00 UTC (virtual or real)
     * @param frame          the readable bytes of this buffer are the frame; it is neither released
     *                       nor read from (its indexes do not move)
     * @param commentOrNull  packet comment, e.g. "ECN CE marked"; ignored by formats without comments
     */
    default void write(int interfaceId, long timestampNanos, ByteBuf frame, String commentOrNull)
            throws IOException {
        write(interfaceId, timestampNanos, frame, commentOrNull, PacketDirection.UNKNOWN);
    }

    /**
     * Writes one frame, recording whether the interface received or sent it (pcapng epb_flags;
     * ignored by classic pcap).
     *
     * @see #write(int, long, ByteBuf, String)
     */
    void write(int interfaceId, long timestampNanos, ByteBuf frame, String commentOrNull, PacketDirection direction)
            throws IOException;

    /** Pushes buffered bytes to the file, so that a reader sees every frame written so far. */
    void flush() throws IOException;

    /** Flushes and closes the file. Closing twice does nothing. */
    @Override
    void close() throws IOException;
}
