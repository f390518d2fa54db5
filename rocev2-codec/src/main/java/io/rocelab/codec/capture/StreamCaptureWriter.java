package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What both writers share: a buffered output stream, the list of interfaces, argument checks,
 * cutting frames to the snap length, and the closed state. Subclasses only encode.
 */
abstract class StreamCaptureWriter implements CaptureWriter {

    private static final int BUFFER_SIZE = 64 * 1024;

    /** An added interface, as the writer needs it. */
    record Port(String name, int linkType, int maxCapturedLength) {
    }

    final OutputStream out;
    final List<Port> ports = new ArrayList<>();
    private boolean closed;

    StreamCaptureWriter(OutputStream out) {
        this.out = new BufferedOutputStream(Objects.requireNonNull(out, "out"), BUFFER_SIZE);
    }

    @Override
    public final int addInterface(String name, int linkType, int snapLen, long speedBitsPerSecond,
                                  String description) throws IOException {
        ensureOpen();
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("linkType " + linkType + " is not a 16-bit link type");
        }
        if (snapLen < 0) {
            throw new IllegalArgumentException("snapLen " + snapLen + " is negative; use 0 for no limit");
        }
        if (speedBitsPerSecond < 0) {
            throw new IllegalArgumentException("speedBitsPerSecond " + speedBitsPerSecond
                    + " is negative; use 0 if unknown");
        }
        int maxCaptured = writeInterface(name, linkType, snapLen, speedBitsPerSecond, description);
        ports.add(new Port(name, linkType, maxCaptured));
        return ports.size() - 1;
    }

    @Override
    public final void write(int interfaceId, long timestampNanos, ByteBuf frame, String commentOrNull,
                            PacketDirection direction) throws IOException {
        ensureOpen();
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(direction, "direction");
        if (frame.refCnt() == 0) {
            throw new IllegalArgumentException("frame has already been released");
        }
        if (interfaceId < 0 || interfaceId >= ports.size()) {
            throw new IllegalArgumentException("interfaceId " + interfaceId + " was never added"
                    + (ports.isEmpty() ? "; call addInterface first" : " (ids 0.." + (ports.size() - 1) + " exist)"));
        }
        if (timestampNanos < 0) {
            throw new IllegalArgumentException("timestampNanos " + timestampNanos
                    + " is before 1970-01-01; capture timestamps count from the epoch");
        }
        int originalLength = frame.readableBytes();
        int capturedLength = Math.min(originalLength, ports.get(interfaceId).maxCapturedLength());
        writePacket(interfaceId, timestampNanos, frame, capturedLength, originalLength, commentOrNull, direction);
    }

    /**
     * Encodes an interface.
     *
     * @return the most bytes of a frame on this interface that will be written
     */
    abstract int writeInterface(String name, int linkType, int snapLen, long speedBitsPerSecond,
                                String description) throws IOException;

    /** Encodes one frame, of which the first {@code capturedLength} readable bytes are kept. */
    abstract void writePacket(int interfaceId, long timestampNanos, ByteBuf frame, int capturedLength,
                              int originalLength, String comment, PacketDirection direction) throws IOException;

    /** Called once by {@link #close()} before the stream is flushed and closed. */
    void finish() throws IOException {
    }

    /** Opens {@code path} for writing, creating or truncating it. */
    static OutputStream newFile(Path path) throws IOException {
        return Files.newOutputStream(path);
    }

    /** Closes {@code out} while a failure is propagating, keeping the original failure primary. */
    static void closeAfterFailure(OutputStream out, Throwable failure) {
        try {
            out.close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    /** Copies the first {@code length} readable bytes of {@code frame} without moving its indexes. */
    void writeFrameBytes(ByteBuf frame, int length) throws IOException {
        frame.getBytes(frame.readerIndex(), out, length);
    }

    void writeBuffer(ByteBuffer buffer) throws IOException {
        out.write(buffer.array(), buffer.arrayOffset(), buffer.position());
    }

    static ByteBuffer littleEndian(int capacity) {
        return ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public final void flush() throws IOException {
        ensureOpen();
        out.flush();
    }

    @Override
    public final void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (OutputStream stream = out) {
            finish();
            stream.flush();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("capture writer is closed");
        }
    }
}
