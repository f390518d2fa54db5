package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads classic pcap files (draft-ietf-opsawg-pcap): a 24-byte file header, then per packet a
 * 16-byte record header and the captured bytes. Both magics are understood, 0xa1b2c3d4
 * (microsecond timestamps) and 0xa1b23c4d (nanosecond timestamps), each in either byte order.
 * Records have interface id 0, no comment and no direction. A record longer than 262144 bytes is
 * refused, whatever the file's snap length, as libpcap refuses it; the packet data is read straight
 * into the record's buffer.
 */
public final class PcapReader extends FileCaptureReader {

    /** Magic of a pcap file with microsecond timestamps, as a big-endian read of the first 4 bytes. */
    static final int MAGIC_MICROSECONDS = 0xA1B2C3D4;
    /** Magic of a pcap file with nanosecond timestamps, as a big-endian read of the first 4 bytes. */
    static final int MAGIC_NANOSECONDS = 0xA1B23C4D;

    private static final int FILE_HEADER_LENGTH = 24;
    private static final int RECORD_HEADER_LENGTH = 16;

    private final ByteOrder order;
    private final long ticksToNanos;
    private final CaptureInterface captureInterface;

    /** Opens a pcap file; packet buffers come from {@link ByteBufAllocator#DEFAULT}. */
    public static PcapReader open(Path path) throws IOException {
        return open(path, ByteBufAllocator.DEFAULT);
    }

    /** Opens a pcap file, taking packet buffers from {@code allocator}. */
    public static PcapReader open(Path path, ByteBufAllocator allocator) throws IOException {
        FileInput in = FileInput.open(path);
        try {
            return new PcapReader(in, allocator);
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(in, e);
            throw e;
        }
    }

    PcapReader(FileInput in, ByteBufAllocator allocator) throws IOException {
        super(in, allocator);
        ByteBuffer header = in.read(FILE_HEADER_LENGTH, ByteOrder.BIG_ENDIAN, "pcap file header");
        int magic = header.getInt(0);
        if (magic == MAGIC_MICROSECONDS || magic == MAGIC_NANOSECONDS) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (Integer.reverseBytes(magic) == MAGIC_MICROSECONDS
                || Integer.reverseBytes(magic) == MAGIC_NANOSECONDS) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            throw in.error(0, String.format("not a pcap file (magic 0x%08x)", magic));
        }
        header.order(order);
        ticksToNanos = header.getInt(0) == MAGIC_NANOSECONDS ? 1 : 1000;
        int major = Short.toUnsignedInt(header.getShort(4));
        int minor = Short.toUnsignedInt(header.getShort(6));
        if (major != 2) {
            throw in.error(4, "unsupported pcap version " + major + "." + minor + " (expected 2.x)");
        }
        long snapLen = Integer.toUnsignedLong(header.getInt(16));
        // The low 16 bits are the link type; the upper bits may carry FCS information.
        int linkType = header.getInt(20) & 0xFFFF;
        captureInterface = new CaptureInterface(0, null, null, linkType,
                (int) Math.min(snapLen, Integer.MAX_VALUE), 0);
    }

    static boolean isMagic(int bigEndianMagic) {
        int swapped = Integer.reverseBytes(bigEndianMagic);
        return bigEndianMagic == MAGIC_MICROSECONDS || bigEndianMagic == MAGIC_NANOSECONDS
                || swapped == MAGIC_MICROSECONDS || swapped == MAGIC_NANOSECONDS;
    }

    @Override
    CaptureRecord readNext() throws IOException {
        if (in.atEnd()) {
            return null;
        }
        long start = in.offset();
        ByteBuffer header = in.read(RECORD_HEADER_LENGTH, order, "pcap record header");
        long seconds = Integer.toUnsignedLong(header.getInt(0));
        long fraction = Integer.toUnsignedLong(header.getInt(4));
        long capturedLength = Integer.toUnsignedLong(header.getInt(8));
        long originalLength = Integer.toUnsignedLong(header.getInt(12));
        if (capturedLength > MAX_PACKET_LENGTH) {
            // whatever the header's snap length says, as libpcap refuses such a record
            throw in.error(start + 8, "record captured length " + capturedLength
                    + " is larger than any packet a capture holds (" + MAX_PACKET_LENGTH + ")");
        }
        String what = "packet data of the record at offset " + start;
        in.require(capturedLength, what);
        // At most 2^32 s * 10^9 + 2^32 * 1000 ns: fits a long.
        long timestampNanos = seconds * 1_000_000_000L + fraction * ticksToNanos;
        ByteBuf content = readPacketData((int) capturedLength, what);
        return new CaptureRecord(0, timestampNanos, content, originalLength, captureInterface.linkType(), null,
                PacketDirection.UNKNOWN);
    }

    @Override
    public List<CaptureInterface> interfaces() {
        return List.of(captureInterface);
    }

    /** True if the timestamps in the file are nanoseconds, false if microseconds. */
    public boolean nanosecondTimestamps() {
        return ticksToNanos == 1;
    }

    /** The byte order the file was written in. */
    public ByteOrder byteOrder() {
        return order;
    }
}
