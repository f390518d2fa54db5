package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Writes classic pcap (draft-ietf-opsawg-pcap), the format every tool reads, for the traffic of a
 * single port. The file uses the nanosecond magic 0xa1b23c4d so that virtual-time timestamps keep
 * their nanoseconds, and is written little-endian.
 *
 * <p>Classic pcap has exactly one interface, described by its file header: {@link #addInterface}
 * must be called once, before the first frame, and only its link type and snap length are kept (a
 * snap length of 0 is written as {@value CaptureWriter#DEFAULT_SNAPLEN}). There is no place for
 * comments or directions; they are dropped. Timestamps must fall before the year 2106 (32-bit
 * seconds).
 */
public final class PcapWriter extends StreamCaptureWriter {

    private static final int FILE_HEADER_LENGTH = 24;
    private static final int RECORD_HEADER_LENGTH = 16;
    private static final int VERSION_MAJOR = 2;
    private static final int VERSION_MINOR = 4;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MAX_SECONDS = 0xFFFF_FFFFL;

    private final ByteBuffer recordHeader = littleEndian(RECORD_HEADER_LENGTH);

    /** Creates (or truncates) {@code path} and writes pcap to it. */
    public static PcapWriter create(Path path) throws IOException {
        return new PcapWriter(newFile(path));
    }

    /** Writes pcap to {@code out}, which the writer closes when it is closed. */
    public PcapWriter(OutputStream out) {
        super(out);
    }

    @Override
    int writeInterface(String name, int linkType, int snapLen, long speedBitsPerSecond, String description)
            throws IOException {
        if (!ports.isEmpty()) {
            throw new IllegalStateException("classic pcap holds exactly one interface: cannot add "
                    + describe(name) + " after " + describe(ports.get(0).name())
                    + "; write one pcap per port or use PcapngWriter for several interfaces");
        }
        int fileSnapLen = snapLen == 0 ? DEFAULT_SNAPLEN : snapLen;
        writeFileHeader(linkType, fileSnapLen);
        return fileSnapLen;
    }

    private void writeFileHeader(int linkType, int snapLen) throws IOException {
        ByteBuffer header = littleEndian(FILE_HEADER_LENGTH);
        header.putInt(PcapReader.MAGIC_NANOSECONDS)
                .putShort((short) VERSION_MAJOR)
                .putShort((short) VERSION_MINOR)
                .putInt(0) // reserved (was thiszone)
                .putInt(0) // reserved (was sigfigs)
                .putInt(snapLen)
                .putInt(linkType);
        writeBuffer(header);
    }

    @Override
    void writePacket(int interfaceId, long timestampNanos, ByteBuf frame, int capturedLength, int originalLength,
                     String comment, PacketDirection direction) throws IOException {
        long seconds = timestampNanos / NANOS_PER_SECOND;
        if (seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("timestampNanos " + timestampNanos
                    + " is after 2106-02-07, beyond the 32-bit seconds of classic pcap");
        }
        recordHeader.clear();
        recordHeader.putInt((int) seconds)
                .putInt((int) (timestampNanos % NANOS_PER_SECOND))
                .putInt(capturedLength)
                .putInt(originalLength);
        writeBuffer(recordHeader);
        writeFrameBytes(frame, capturedLength);
    }

    /** A file with no interface would not be a pcap file: give it a header so it reads as empty. */
    @Override
    void finish() throws IOException {
        if (ports.isEmpty()) {
            writeFileHeader(LinkType.ETHERNET, DEFAULT_SNAPLEN);
        }
    }

    private static String describe(String name) {
        return name == null ? "an unnamed interface" : "'" + name + "'";
    }
}
