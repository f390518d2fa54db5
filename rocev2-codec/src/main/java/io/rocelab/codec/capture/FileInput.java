package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Buffered sequential reading of a capture file that always knows its byte offset and how much
 * of the file is left. Every read first checks that the bytes exist, so a length field read from
 * a corrupt file can never make a reader allocate more than the file holds, run past its end or
 * loop: it gets a {@link CaptureFormatException} naming the offset instead.
 *
 * <p>The file size is taken once, at open; bytes appended later (a capture still being written)
 * are not seen.
 */
final class FileInput implements Closeable {

    private static final int BUFFER_SIZE = 64 * 1024;

    private final String source;
    private final FileChannel channel;
    private final long size;
    /** Read mode: position = next unread byte, limit = end of the bytes read from the file. */
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_SIZE).limit(0);
    /** File offset of buffer index 0. */
    private long bufferStart;

    private FileInput(String source, FileChannel channel, long size) {
        this.source = source;
        this.channel = channel;
        this.size = size;
    }

    static FileInput open(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return new FileInput(path.toString(), channel, channel.size());
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Name of the file, for messages. */
    String source() {
        return source;
    }

    /** Offset of the next byte to be read. */
    long offset() {
        return bufferStart + buffer.position();
    }

    /** Size of the file when it was opened. */
    long size() {
        return size;
    }

    /** Bytes between the current offset and the end of the file. */
    long remaining() {
        return size - offset();
    }

    boolean atEnd() {
        return remaining() <= 0;
    }

    /** An exception about this file at the given offset. */
    CaptureFormatException error(long offset, String problem) {
        return new CaptureFormatException(source, offset, problem);
    }

    /** Fails, naming {@code what}, unless at least {@code n} more bytes are in the file. */
    void require(long n, String what) throws CaptureFormatException {
        long left = remaining();
        if (n > left) {
            throw error(offset(), "truncated " + what + ": it needs " + n + " bytes but the file ends after "
                    + left);
        }
    }

    /** The next {@code n} bytes, as a buffer of the given byte order positioned at 0. */
    ByteBuffer read(int n, ByteOrder order, String what) throws IOException {
        return ByteBuffer.wrap(readBytes(n, what)).order(order);
    }

    /** The next {@code n} bytes. */
    byte[] readBytes(int n, String what) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("negative length " + n + " for " + what);
        }
        require(n, what);
        byte[] dst = new byte[n];
        int done = 0;
        while (done < n) {
            if (!buffer.hasRemaining()) {
                fill(what);
            }
            int chunk = Math.min(n - done, buffer.remaining());
            buffer.get(dst, done, chunk);
            done += chunk;
        }
        return dst;
    }

    /**
     * Appends the next {@code n} bytes to {@code dst}, straight from the read buffer: packet data
     * goes into its record's buffer with no array of its own on the way.
     */
    void readInto(ByteBuf dst, int n, String what) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("negative length " + n + " for " + what);
        }
        require(n, what);
        int done = 0;
        while (done < n) {
            if (!buffer.hasRemaining()) {
                fill(what);
            }
            int chunk = Math.min(n - done, buffer.remaining());
            dst.writeBytes(buffer.array(), buffer.arrayOffset() + buffer.position(), chunk);
            buffer.position(buffer.position() + chunk);
            done += chunk;
        }
    }

    /**
     * The next four bytes as a big-endian 32-bit value, without consuming them: a file magic, shown
     * and compared in the order its bytes appear in the file, or the type of the next block.
     */
    int peekInt(String what) throws IOException {
        require(4, what);
        if (buffer.remaining() < 4) {
            bufferStart = offset();
            buffer.compact();
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, bufferStart + buffer.position());
                if (n <= 0) {
                    break;
                }
            }
            buffer.flip();
            if (buffer.remaining() < 4) {
                throw error(bufferStart, "truncated " + what + ": the file got shorter while it was being read");
            }
        }
        int p = buffer.position();
        return (buffer.get(p) & 0xFF) << 24 | (buffer.get(p + 1) & 0xFF) << 16
                | (buffer.get(p + 2) & 0xFF) << 8 | (buffer.get(p + 3) & 0xFF);
    }

    /** Moves {@code n} bytes forward without reading them. */
    void skip(long n, String what) throws CaptureFormatException {
        if (n < 0) {
            throw new IllegalArgumentException("negative length " + n + " for " + what);
        }
        require(n, what);
        if (n <= buffer.remaining()) {
            buffer.position(buffer.position() + (int) n);
        } else {
            bufferStart = offset() + n;
            buffer.position(0).limit(0);
        }
    }

    private void fill(String what) throws IOException {
        bufferStart = offset();
        buffer.clear();
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, bufferStart + buffer.position());
            if (n <= 0) {
                break;
            }
        }
        buffer.flip();
        if (!buffer.hasRemaining()) {
            throw error(bufferStart, "truncated " + what + ": the file got shorter while it was being read");
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
