package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes pcapng (draft-ietf-opsawg-pcapng) for a whole lab: one section, one Interface Description
 * Block per port, and an Enhanced Packet Block per frame that can carry a comment ("ECN CE marked",
 * "dropped: buffer full") and the frame's direction. Everything is little-endian; timestamps are
 * nanoseconds (if_tsresol = 9).
 *
 * <p>Interfaces may be added at any time, also after frames have been written (§3.4, Figure 6).
 */
public final class PcapngWriter extends StreamCaptureWriter {

    /** Written as shb_userappl, shown by capinfos as "Capture application". */
    static final String USER_APPLICATION = "rocelab";

    /** Type, length, interface id, timestamp high and low, captured and original length. */
    private static final int EPB_HEADER_LENGTH = 28;
    private static final long SECTION_LENGTH_UNSPECIFIED = -1;

    // Reused for every packet, so that writing a frame without a comment allocates nothing.
    private final ByteBuffer packetHeader = littleEndian(EPB_HEADER_LENGTH);
    private ByteBuffer packetTail = littleEndian(256);

    /** Creates (or truncates) {@code path} and writes pcapng to it. */
    public static PcapngWriter create(Path path) throws IOException {
        OutputStream out = newFile(path);
        try {
            return new PcapngWriter(out);
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(out, e);
            throw e;
        }
    }

    /**
     * Writes pcapng to {@code out}, which the writer closes when it is closed. The Section Header
     * Block is written at once, so a stream can be piped to Wireshark ({@code wireshark -k -i -}).
     */
    public PcapngWriter(OutputStream out) throws IOException {
        super(out);
        writeSectionHeader();
    }

    /** §4.1: byte-order magic, version 1.0, section length unknown (-1), shb_userappl. */
    private void writeSectionHeader() throws IOException {
        byte[] application = USER_APPLICATION.getBytes(StandardCharsets.UTF_8);
        int total = 24 + optionLength(application) + 4 + 4;
        ByteBuffer block = littleEndian(total);
        block.putInt(Pcapng.SECTION_HEADER_BLOCK)
                .putInt(total)
                .putInt(Pcapng.BYTE_ORDER_MAGIC)
                .putShort((short) Pcapng.MAJOR_VERSION)
                .putShort((short) Pcapng.MINOR_VERSION)
                .putLong(SECTION_LENGTH_UNSPECIFIED);
        putOption(block, Pcapng.SHB_USERAPPL, application);
        block.putInt(Pcapng.OPT_ENDOFOPT).putInt(total);
        writeBuffer(block);
    }

    /** §4.2: link type, snap length, if_name, if_description, if_speed, if_tsresol = 9. */
    @Override
    int writeInterface(String name, int linkType, int snapLen, long speedBitsPerSecond, String description)
            throws IOException {
        byte[] nameBytes = optionString("interface name", name);
        byte[] descriptionBytes = optionString("interface description", description);
        int options = optionLength(nameBytes) + optionLength(descriptionBytes)
                + (speedBitsPerSecond > 0 ? optionLength(8) : 0) + optionLength(1) + 4;
        int total = 16 + options + 4;
        ByteBuffer block = littleEndian(total);
        block.putInt(Pcapng.INTERFACE_DESCRIPTION_BLOCK)
                .putInt(total)
                .putShort((short) linkType)
                .putShort((short) 0) // reserved
                .putInt(snapLen);
        putOption(block, Pcapng.IF_NAME, nameBytes);
        putOption(block, Pcapng.IF_DESCRIPTION, descriptionBytes);
        if (speedBitsPerSecond > 0) {
            block.putShort((short) Pcapng.IF_SPEED).putShort((short) 8).putLong(speedBitsPerSecond);
        }
        block.putShort((short) Pcapng.IF_TSRESOL).putShort((short) 1)
                .put((byte) TimestampScale.NANOSECONDS);
        putZeros(block, 3);
        block.putInt(Pcapng.OPT_ENDOFOPT).putInt(total);
        writeBuffer(block);
        return snapLen == 0 ? Integer.MAX_VALUE : snapLen;
    }

    /** §4.3: packet data padded to 32 bits, then opt_comment and epb_flags if there are any. */
    @Override
    void writePacket(int interfaceId, long timestampNanos, ByteBuf frame, int capturedLength, int originalLength,
                     String comment, PacketDirection direction) throws IOException {
        byte[] commentBytes = optionString("comment", comment);
        boolean hasFlags = direction != PacketDirection.UNKNOWN;
        int options = commentBytes == null && !hasFlags
                ? 0
                : optionLength(commentBytes) + (hasFlags ? optionLength(4) : 0) + 4;
        int padding = Pcapng.pad4(capturedLength) - capturedLength;
        int total = EPB_HEADER_LENGTH + capturedLength + padding + options + 4;

        ByteBuffer header = packetHeader.clear();
        header.putInt(Pcapng.ENHANCED_PACKET_BLOCK)
                .putInt(total)
                .putInt(interfaceId)
                .putInt((int) (timestampNanos >>> 32))
                .putInt((int) timestampNanos)
                .putInt(capturedLength)
                .putInt(originalLength);
        writeBuffer(header);
        writeFrameBytes(frame, capturedLength);

        ByteBuffer tail = packetTail(padding + options + 4);
        putZeros(tail, padding);
        if (options > 0) {
            putOption(tail, Pcapng.OPT_COMMENT, commentBytes);
            if (hasFlags) {
                tail.putShort((short) Pcapng.EPB_FLAGS).putShort((short) 4).putInt(direction.flagBits());
            }
            tail.putInt(Pcapng.OPT_ENDOFOPT);
        }
        tail.putInt(total);
        writeBuffer(tail);
    }

    /** The reused buffer for what follows a frame, grown when a long comment needs more room. */
    private ByteBuffer packetTail(int length) {
        if (packetTail.capacity() < length) {
            packetTail = littleEndian(Math.max(length, 2 * packetTail.capacity()));
        }
        return packetTail.clear();
    }

    /** UTF-8 bytes of a string option, or null for null; refuses what a 16-bit length cannot hold. */
    private static byte[] optionString(String what, String value) {
        if (value == null) {
            return null;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > Pcapng.MAX_OPTION_LENGTH) {
            throw new IllegalArgumentException(what + " is " + bytes.length + " bytes of UTF-8; a pcapng option"
                    + " holds at most " + Pcapng.MAX_OPTION_LENGTH);
        }
        return bytes;
    }

    /** Bytes taken by an option with this value (none for null): header plus padded value (§3.5). */
    private static int optionLength(byte[] value) {
        return value == null ? 0 : optionLength(value.length);
    }

    private static int optionLength(int valueLength) {
        return 4 + Pcapng.pad4(valueLength);
    }

    /** Puts a variable-length option, or nothing for null. */
    private static void putOption(ByteBuffer block, int code, byte[] value) {
        if (value == null) {
            return;
        }
        block.putShort((short) code).putShort((short) value.length).put(value);
        putZeros(block, Pcapng.pad4(value.length) - value.length);
    }

    /** Alignment octets are zero (§3.6.2). */
    private static void putZeros(ByteBuffer block, int count) {
        for (int i = 0; i < count; i++) {
            block.put((byte) 0);
        }
    }
}
