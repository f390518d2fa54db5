package io.rocelab.codec.capture;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Builds pcap and pcapng files byte by byte, in either byte order, straight from the drafts'
 * figures. It shares no code with the writers, so the reader is checked against an independent
 * encoding, including things the writers never produce (big-endian, other resolutions, unknown
 * blocks, several sections).
 */
final class CaptureBytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteOrder order = ByteOrder.LITTLE_ENDIAN;

    // ---- classic pcap -------------------------------------------------------------------------

    static CaptureBytes pcap(ByteOrder order, boolean nanoseconds, int snapLen, int linkType) {
        CaptureBytes b = new CaptureBytes();
        b.order = order;
        b.raw(b.buffer(24).putInt(nanoseconds ? 0xA1B23C4D : 0xA1B2C3D4).putShort((short) 2).putShort((short) 4)
                .putInt(0).putInt(0).putInt(snapLen).putInt(linkType));
        return b;
    }

    CaptureBytes pcapRecord(long seconds, long fraction, byte[] data, int originalLength) {
        raw(buffer(16).putInt((int) seconds).putInt((int) fraction).putInt(data.length).putInt(originalLength));
        out.writeBytes(data);
        return this;
    }

    // ---- pcapng -------------------------------------------------------------------------------

    static CaptureBytes pcapng() {
        return new CaptureBytes();
    }

    /** A Section Header Block (§4.1) in the given byte order; later blocks use that order. */
    CaptureBytes shb(ByteOrder sectionOrder, int majorVersion, byte[]... options) {
        order = sectionOrder;
        byte[] opts = concat(options);
        int total = 28 + opts.length;
        raw(buffer(24).putInt(0x0A0D0D0A).putInt(total).putInt(0x1A2B3C4D).putShort((short) majorVersion)
                .putShort((short) 0).putLong(-1));
        out.writeBytes(opts);
        raw(buffer(4).putInt(total));
        return this;
    }

    CaptureBytes shb(ByteOrder sectionOrder) {
        return shb(sectionOrder, 1);
    }

    /** An Interface Description Block (§4.2). */
    CaptureBytes idb(int linkType, int snapLen, byte[]... options) {
        ByteBuffer fixed = buffer(8).putShort((short) linkType).putShort((short) 0).putInt(snapLen);
        return block(1, concat(fixed.array(), concat(options)));
    }

    /** An Enhanced Packet Block (§4.3); data is padded here. */
    CaptureBytes epb(int interfaceId, long ticks, byte[] data, int originalLength, byte[]... options) {
        ByteBuffer fixed = buffer(20).putInt(interfaceId).putInt((int) (ticks >>> 32)).putInt((int) ticks)
                .putInt(data.length).putInt(originalLength);
        return block(6, concat(fixed.array(), padded(data), concat(options)));
    }

    /** An obsolete Packet Block (Appendix A). */
    CaptureBytes packetBlock(int interfaceId, long ticks, byte[] data, int originalLength, byte[]... options) {
        ByteBuffer fixed = buffer(20).putShort((short) interfaceId).putShort((short) 0).putInt((int) (ticks >>> 32))
                .putInt((int) ticks).putInt(data.length).putInt(originalLength);
        return block(2, concat(fixed.array(), padded(data), concat(options)));
    }

    /** A Simple Packet Block (§4.4). */
    CaptureBytes spb(int originalLength, byte[] data) {
        return block(3, concat(buffer(4).putInt(originalLength).array(), padded(data)));
    }

    /** Any block: type, total length, body padded to 32 bits, total length (§3.1). */
    CaptureBytes block(int type, byte[] body) {
        byte[] padded = padded(body);
        int total = 12 + padded.length;
        raw(buffer(8).putInt(type).putInt(total));
        out.writeBytes(padded);
        raw(buffer(4).putInt(total));
        return this;
    }

    /** An option (§3.5) in the current section's byte order, value padded. */
    byte[] option(int code, byte[] value) {
        return concat(buffer(4).putShort((short) code).putShort((short) value.length).array(), padded(value));
    }

    byte[] option(int code, String utf8) {
        return option(code, utf8.getBytes(StandardCharsets.UTF_8));
    }

    byte[] u8(int value) {
        return new byte[] {(byte) value};
    }

    byte[] u32(int value) {
        return buffer(4).putInt(value).array();
    }

    byte[] u64(long value) {
        return buffer(8).putLong(value).array();
    }

    byte[] endOfOptions() {
        return new byte[4];
    }

    // ---- raw ----------------------------------------------------------------------------------

    CaptureBytes raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    private void raw(ByteBuffer buffer) {
        out.writeBytes(buffer.array());
    }

    int size() {
        return out.size();
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    private ByteBuffer buffer(int size) {
        return ByteBuffer.allocate(size).order(order);
    }

    static byte[] padded(byte[] data) {
        byte[] result = new byte[(data.length + 3) & ~3];
        System.arraycopy(data, 0, result, 0, data.length);
        return result;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            joined.writeBytes(part);
        }
        return joined.toByteArray();
    }
}
