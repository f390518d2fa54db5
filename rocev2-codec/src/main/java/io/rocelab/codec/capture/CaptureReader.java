package io.rocelab.codec.capture;

import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the packets of a capture file one at a time, whatever its format: classic pcap with
 * microsecond or nanosecond timestamps, or pcapng, in either byte order. {@link #open(Path)} looks
 * at the first four bytes and picks {@link PcapReader} or {@link PcapngReader}.
 *
 * <p>Every record returned by {@link #next()} belongs to the caller, who must release it (see
 * {@link CaptureRecord}). A malformed file produces a {@link CaptureFormatException} naming the
 * offset and the problem; after one, the reader keeps throwing the same exception rather than
 * guessing where the next good record starts.
 */
public interface CaptureReader extends AutoCloseable {

    /**
     * Opens a pcap or pcapng file; packet buffers come from {@link ByteBufAllocator#DEFAULT}.
     *
     * @throws CaptureFormatException if the file is neither format or its header is corrupt
     * @throws IOException            if the file cannot be read
     */
    static CaptureReader open(Path path) throws IOException {
        return open(path, ByteBufAllocator.DEFAULT);
    }

    /**
     * Opens a pcap or pcapng file, taking packet buffers from {@code allocator}.
     *
     * @throws CaptureFormatException if the file is neither format or its header is corrupt
     * @throws IOException            if the file cannot be read
     */
    static CaptureReader open(Path path, ByteBufAllocator allocator) throws IOException {
        FileInput in = FileInput.open(path);
        try {
            if (in.size() < 4) {
                throw in.error(0, "not a pcap or pcapng file: it is only " + in.size() + " bytes long");
            }
            int magic = in.peekInt("file magic");
            if (PcapReader.isMagic(magic)) {
                return new PcapReader(in, allocator);
            }
            if (PcapngReader.isMagic(magic)) {
                return new PcapngReader(in, allocator);
            }
            throw in.error(0, String.format("not a pcap or pcapng file (magic 0x%08x)", magic));
        } catch (IOException | RuntimeException e) {
            FileCaptureReader.closeAfterFailure(in, e);
            throw e;
        }
    }

    /**
     * The next packet of the file, or null at its end. The caller owns the returned record and
     * must release it.
     *
     * @throws CaptureFormatException if the file is truncated or corrupt at this point
     * @throws IOException            if the file cannot be read
     * @throws IllegalStateException  if the reader is closed
     */
    CaptureRecord next() throws IOException;

    /**
     * The interfaces described so far in the current section: for pcap the single interface of
     * its header; for pcapng the Interface Description Blocks read up to now. Opening a pcapng
     * file reads every block before its first packet, so for the usual layout (interfaces first)
     * the list is complete right after {@link #open}; a later Interface Description Block extends
     * it, and a new Section Header Block starts it afresh.
     */
    List<CaptureInterface> interfaces();

    /** Closes the file. Records already returned stay valid until released. */
    @Override
    void close() throws IOException;
}
