package io.rocelab.codec.capture;

import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.util.Objects;

/**
 * What both file readers share: the input file, the buffer allocator, the closed state, and the
 * rule that once a file has turned out to be corrupt every later {@link #next()} reports the same
 * problem instead of reading on from a position that is no longer trustworthy.
 */
abstract class FileCaptureReader implements CaptureReader {

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
