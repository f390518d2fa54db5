package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.util.Objects;

/**
 * What both file readers share: the input file, the buffer allocator, the closed state, and the
 * rule that once a file has turned out to be corrupt every later {@link #next()} reports the same
 * problem instead of reading on from a position that is no longer trustworthy.
 */
abstract class FileCaptureReader implements CaptureReader {

    /**
     * The largest packet either reader takes, whatever a header says: libpcap's MAXIMUM_SNAPLEN,
     * beyond which libpcap and Wireshark refuse an Ethernet record too. A length field above it is
     * corruption (or an attack), reported before a byte of memory is taken for it.
     */
    static final int MAX_PACKET_LENGTH = 262_144;

    final FileInput in;
    final ByteBufAllocator allocator;
    private boolean closed;
    private CaptureFormatException failure;

    FileCaptureReader(FileInput in, ByteBufAllocator allocator) {
        this.in = in;
        this.allocator = Objects.requireNonNull(allocator, "allocator");
    }

    @Override
    public final CaptureRecord next() throws IOException {
        if (closed) {
            throw new IllegalStateException("capture reader for " + in.source() + " is closed");
        }
        if (failure != null) {
            throw failure;
        }
        try {
            return readNext();
        } catch (CaptureFormatException e) {
            failure = e;
            throw e;
        }
    }

    /** The next record, or null at the end of the file. */
    abstract CaptureRecord readNext() throws IOException;

    /**
     * The next {@code length} bytes of the file (at most {@link #MAX_PACKET_LENGTH}, checked by
     * the caller) in a buffer of the allocator, read into it directly: one copy of the packet in
     * memory, not two.
     */
    final ByteBuf readPacketData(int length, String what) throws IOException {
        ByteBuf content = allocator.buffer(length);
        try {
            in.readInto(content, length, what);
            return content;
        } catch (IOException | RuntimeException e) {
            content.release();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            in.close();
        }
    }

    /** Closes {@code in} while a failure is propagating, keeping the original failure primary. */
    static void closeAfterFailure(FileInput in, Throwable failure) {
        try {
            in.close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }
}
