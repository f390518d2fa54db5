package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads pcapng files (draft-ietf-opsawg-pcapng): a sequence of blocks, each section starting with
 * a Section Header Block that fixes the byte order of the blocks after it.
 *
 * <p>Understood: Section Header (§4.1), Interface Description (§4.2, with if_name,
 * if_description, if_speed, if_tsresol in both its power-of-10 and power-of-2 forms, and
 * if_tsoffset), Enhanced Packet (§4.3, with opt_comment and the direction bits of epb_flags),
 * Simple Packet (§4.4; it has no timestamp, so its records report 0) and the obsolete Packet Block
 * (Appendix A). Every other block type is skipped, as §3.1 intends. A section whose major version
 * is not 1 is skipped up to the next Section Header Block (§3.4).
 *
 * <p>Each block's total length is checked before anything is read past it: at least the size of
 * the block's fixed fields, a multiple of 4, inside the file, and equal to the copy at the block's
 * end. A packet's data goes straight into its record's buffer, at most 262144 bytes of it (as for
 * pcap), and no more than {@value #MAX_BUFFERED_LENGTH} bytes of anything else of a block are held
 * in memory: a length field cannot make the reader take more memory than that.
 */
public final class PcapngReader extends FileCaptureReader {

    /** Blocks longer than this are refused, even those skipped unread. */
    static final long MAX_BLOCK_LENGTH = 64L << 20;
    /**
     * What of a block is held in memory besides its packet data (the body of a section header or
     * interface description, a packet's options) is at most this long: a longer one is refused
     * before anything is taken for it.
     */
    static final int MAX_BUFFERED_LENGTH = 1 << 20;
    /** The fields an Enhanced Packet Block and a Packet Block have before their packet data (§4.3, Appendix A). */
    private static final int PACKET_FIELDS_LENGTH = 20;

    private final List<CaptureInterface> interfaces = new ArrayList<>();
    private final List<TimestampScale> scales = new ArrayList<>();
    private ByteOrder order;
    private boolean sectionSupported;

    /** Opens a pcapng file; packet buffers come from {@link ByteBufAllocator#DEFAULT}. */
    public static PcapngReader open(Path path) throws IOException {
        return open(path, ByteBufAllocator.DEFAULT);
    }

    /** Opens a pcapng file, taking packet buffers from {@code allocator}. */
    public static PcapngReader open(Path path, ByteBufAllocator allocator) throws IOException {
        FileInput in = FileInput.open(path);
        try {
            return new PcapngReader(in, allocator);
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(in, e);
            throw e;
        }
    }

    PcapngReader(FileInput in, ByteBufAllocator allocator) throws IOException {
        super(in, allocator);
        if (in.size() < 4) {
            throw in.error(0, "not a pcapng file: it is only " + in.size() + " bytes long");
        }
        int magic = in.peekInt("file magic");
        if (!isMagic(magic)) {
            throw in.error(0, String.format("not a pcapng file (magic 0x%08x, expected a Section Header Block"
                    + " 0x0a0d0d0a)", magic));
        }
        // Read the Section Header Block and the blocks up to the first packet now, so that a bad
        // header fails at open and interfaces() lists the interfaces of the usual layout at once.
        readBlock();
        while (!in.atEnd() && !isPacketBlock(nextBlockType())) {
            readBlock();
        }
    }

    private int nextBlockType() throws IOException {
        int type = in.peekInt("block type");
        return order == ByteOrder.BIG_ENDIAN ? type : Integer.reverseBytes(type);
    }

    private static boolean isPacketBlock(int type) {
        return type == Pcapng.ENHANCED_PACKET_BLOCK || type == Pcapng.PACKET_BLOCK
                || type == Pcapng.SIMPLE_PACKET_BLOCK;
    }

    static boolean isMagic(int bigEndianMagic) {
        return bigEndianMagic == Pcapng.SECTION_HEADER_BLOCK;
    }

    @Override
    public List<CaptureInterface> interfaces() {
        return List.copyOf(interfaces);
    }

    /** The byte order of the current section. */
    public ByteOrder byteOrder() {
        return order;
    }

    @Override
    CaptureRecord readNext() throws IOException {
        while (!in.atEnd()) {
            CaptureRecord record = readBlock();
            if (record != null) {
                return record;
            }
        }
        return null;
    }

    /** Reads one block; returns its packet if it holds one, else null. */
    private CaptureRecord readBlock() throws IOException {
        long start = in.offset();
        ByteBuffer header = in.read(8, ByteOrder.BIG_ENDIAN, "block header");
        if (header.getInt(0) == Pcapng.SECTION_HEADER_BLOCK) {
            readSectionHeader(start, header);
            return null;
        }
        header.order(order);
        int type = header.getInt(0);
        long total = Integer.toUnsignedLong(header.getInt(4));
        String name = blockName(type);
        if (!sectionSupported) {
            skipBlock(start, total, name);
            return null;
        }
        switch (type) {
            case Pcapng.INTERFACE_DESCRIPTION_BLOCK -> {
                ByteBuffer body = readBody(start, total, Pcapng.MIN_INTERFACE_DESCRIPTION_LENGTH, name);
                readInterfaceDescription(body, start + 8, name);
                return null;
            }
            case Pcapng.ENHANCED_PACKET_BLOCK -> {
                return readPacket(start, total, Pcapng.MIN_ENHANCED_PACKET_LENGTH, name, true);
            }
            case Pcapng.PACKET_BLOCK -> {
                return readPacket(start, total, Pcapng.MIN_PACKET_BLOCK_LENGTH, name, false);
            }
            case Pcapng.SIMPLE_PACKET_BLOCK -> {
                return readSimplePacket(start, total, name);
            }
            default -> {
                skipBlock(start, total, name);
                return null;
            }
        }
    }

    /** §4.1: the byte-order magic decides how every multi-byte number of the section is read. */
    private void readSectionHeader(long start, ByteBuffer header) throws IOException {
        String name = "Section Header Block";
        ByteBuffer magicField = in.read(4, ByteOrder.BIG_ENDIAN, name + " byte-order magic");
        int magic = magicField.getInt(0);
        ByteOrder sectionOrder;
        if (magic == Pcapng.BYTE_ORDER_MAGIC) {
            sectionOrder = ByteOrder.BIG_ENDIAN;
        } else if (Integer.reverseBytes(magic) == Pcapng.BYTE_ORDER_MAGIC) {
            sectionOrder = ByteOrder.LITTLE_ENDIAN;
        } else {
            throw in.error(start + 8, String.format("%s has byte-order magic 0x%08x; expected 0x1a2b3c4d"
                    + " in either byte order", name, magic));
        }
        long total = Integer.toUnsignedLong(header.order(sectionOrder).getInt(4));
        checkLength(start, total, Pcapng.MIN_SECTION_HEADER_LENGTH, name);
        checkBuffered(start + 4, total - 12, name + " body");
        // index 0 of body is file offset start + 12: just after the byte-order magic
        ByteBuffer body = in.read((int) total - 12, sectionOrder, name);
        checkTrailer(start, total, body, start + 12, name);
        int major = Short.toUnsignedInt(body.getShort(0));
        order = sectionOrder;
        interfaces.clear();
        scales.clear();
        sectionSupported = major == Pcapng.MAJOR_VERSION;
        if (sectionSupported) {
            // No section option matters to the reader, but a broken option list is corruption.
            new PcapngOptions(in, name).forEach(body, 12, body.limit() - 4, start + 12, (code, value, at) -> { });
        }
    }

    /** §4.2: link type, snap length, and the options that say how to read timestamps. */
    private void readInterfaceDescription(ByteBuffer body, long bodyOffset, String name) throws IOException {
        int linkType = Short.toUnsignedInt(body.getShort(0));
        long snapLen = Integer.toUnsignedLong(body.getInt(4));
        InterfaceOptions options = new InterfaceOptions();
        PcapngOptions reader = new PcapngOptions(in, name);
        reader.forEach(body, 8, body.limit() - 4, bodyOffset, (code, value, at) -> {
            switch (code) {
                case Pcapng.IF_NAME -> options.name = PcapngOptions.string(value);
                case Pcapng.IF_DESCRIPTION -> options.description = PcapngOptions.string(value);
                case Pcapng.IF_SPEED -> options.speed = reader.fixed(code, "if_speed", value, at, 8).getLong(0);
                case Pcapng.IF_TSRESOL -> options.tsresol = reader.fixed(code, "if_tsresol", value, at, 1).get(0);
                case Pcapng.IF_TSOFFSET ->
                        options.tsoffset = reader.fixed(code, "if_tsoffset", value, at, 8).getLong(0);
                default -> { }
            }
        });
        interfaces.add(new CaptureInterface(interfaces.size(), options.name, options.description, linkType,
                (int) Math.min(snapLen, Integer.MAX_VALUE), options.speed));
        scales.add(new TimestampScale(options.tsresol, options.tsoffset));
    }

    /**
     * §4.3 Enhanced Packet Block and Appendix A Packet Block: both have the interface at body
     * offset 0 (32 or 16 bits), the timestamp at 4, the captured and original lengths at 12 and 16,
     * and the packet data at 20. Every field is checked before the packet data is read, straight
     * into the record's buffer; the options after it are read on their own.
     */
    private CaptureRecord readPacket(long start, long total, int minimum, String name, boolean enhanced)
            throws IOException {
        checkLength(start, total, minimum, name);
        long bodyOffset = start + 8;
        ByteBuffer fields = in.read(PACKET_FIELDS_LENGTH, order, name);
        long interfaceId = enhanced ? Integer.toUnsignedLong(fields.getInt(0)) : Short.toUnsignedLong(fields.getShort(0));
        checkInterface(interfaceId, bodyOffset, name);
        long ticks = Integer.toUnsignedLong(fields.getInt(4)) << 32 | Integer.toUnsignedLong(fields.getInt(8));
        long capturedLength = Integer.toUnsignedLong(fields.getInt(12));
        long originalLength = Integer.toUnsignedLong(fields.getInt(16));
        long room = total - minimum;
        if (capturedLength > room) {
            throw in.error(bodyOffset + 12, name + " captured length " + capturedLength
                    + " runs past the end of the block, which has room for " + room);
        }
        if (capturedLength > MAX_PACKET_LENGTH) {
            throw in.error(bodyOffset + 12, name + " captured length " + capturedLength
                    + " is larger than any packet a capture holds (" + MAX_PACKET_LENGTH + ")");
        }
        int id = (int) interfaceId;
        TimestampScale scale = scales.get(id);
        long timestampNanos;
        try {
            timestampNanos = scale.toNanos(ticks);
        } catch (ArithmeticException e) {
            throw in.error(bodyOffset + 4, name + " timestamp " + Long.toUnsignedString(ticks) + " at "
                    + scale.describe() + " is out of range for nanoseconds since 1970");
        }
        int length = (int) capturedLength;
        long dataEnd = bodyOffset + PACKET_FIELDS_LENGTH + length;
        // the padding, the options and the trailing block length
        long rest = total - 8 - PACKET_FIELDS_LENGTH - length;
        checkBuffered(dataEnd, rest, name + " options");
        ByteBuf content = readPacketData(length, name + " packet data");
        try {
            ByteBuffer tail = in.read((int) rest, order, name);
            checkTrailer(start, total, tail, dataEnd, name);
            PacketOptions options = new PacketOptions();
            PcapngOptions reader = new PcapngOptions(in, name);
            reader.forEach(tail, Pcapng.pad4(length) - length, tail.limit() - 4, dataEnd, (code, value, at) -> {
                switch (code) {
                    case Pcapng.OPT_COMMENT -> options.addComment(PcapngOptions.string(value));
                    case Pcapng.EPB_FLAGS -> options.flags = reader.fixed(code, "epb_flags", value, at, 4).getInt(0);
                    default -> { }
                }
            });
            return new CaptureRecord(id, timestampNanos, content, originalLength, interfaces.get(id).linkType(),
                    options.comment, PacketDirection.fromFlags(options.flags));
        } catch (IOException | RuntimeException e) {
            content.release();
            throw e;
        }
    }

    /**
     * §4.4: the packet belongs to the first interface; its captured length is the original length
     * cut to that interface's snap length. There is no timestamp: the record reports 0.
     */
    private CaptureRecord readSimplePacket(long start, long total, String name) throws IOException {
        checkLength(start, total, Pcapng.MIN_SIMPLE_PACKET_LENGTH, name);
        long bodyOffset = start + 8;
        checkInterface(0, bodyOffset, name);
        long originalLength = Integer.toUnsignedLong(in.read(4, order, name).getInt(0));
        int snapLen = interfaces.get(0).snapLen();
        long capturedLength = snapLen == 0 ? originalLength : Math.min(originalLength, snapLen);
        long room = total - Pcapng.MIN_SIMPLE_PACKET_LENGTH;
        if (capturedLength > room) {
            throw in.error(bodyOffset, name + " original length " + originalLength + " needs " + capturedLength
                    + " captured bytes but the block has room for " + room);
        }
        if (capturedLength > MAX_PACKET_LENGTH) {
            throw in.error(bodyOffset, name + " original length " + originalLength + " needs " + capturedLength
                    + " captured bytes, more than any packet a capture holds (" + MAX_PACKET_LENGTH + ")");
        }
        int length = (int) capturedLength;
        long dataEnd = bodyOffset + 4 + length;
        long rest = room - length + 4;
        checkBuffered(dataEnd, rest, name + " padding");
        ByteBuf content = readPacketData(length, name + " packet data");
        try {
            checkTrailer(start, total, in.read((int) rest, order, name), dataEnd, name);
            return new CaptureRecord(0, 0, content, originalLength, interfaces.get(0).linkType(), null,
                    PacketDirection.UNKNOWN);
        } catch (IOException | RuntimeException e) {
            content.release();
            throw e;
        }
    }

    private void checkInterface(long interfaceId, long bodyOffset, String name) throws CaptureFormatException {
        if (interfaceId >= interfaces.size()) {
            throw in.error(bodyOffset, name + " refers to interface " + interfaceId + " but "
                    + (interfaces.isEmpty()
                            ? "no Interface Description Block precedes it in its section"
                            : "its section describes only " + interfaces.size() + " interface(s)"));
        }
    }

    /** Reads the rest of a block whose 8-byte header was read: index 0 is file offset start + 8. */
    private ByteBuffer readBody(long start, long total, int minimum, String name) throws IOException {
        checkLength(start, total, minimum, name);
        checkBuffered(start + 4, total - 8, name + " body");
        ByteBuffer body = in.read((int) total - 8, order, name);
        checkTrailer(start, total, body, start + 8, name);
        return body;
    }

    private void skipBlock(long start, long total, String name) throws IOException {
        checkLength(start, total, Pcapng.MIN_BLOCK_LENGTH, name);
        in.skip(total - 12, name);
        ByteBuffer trailer = in.read(4, order, name + " trailing length");
        checkTrailer(start, total, trailer, start + total - 4, name);
    }

    /** §3.1: the block total length must cover the fixed fields, be a multiple of 4 and fit the file. */
    private void checkLength(long start, long total, int minimum, String name) throws CaptureFormatException {
        if (total < minimum) {
            throw in.error(start + 4, name + " has block total length " + total + ", less than the " + minimum
                    + " bytes its fixed fields need");
        }
        if (total % 4 != 0) {
            throw in.error(start + 4, name + " has block total length " + total + ", not a multiple of 4");
        }
        if (total > MAX_BLOCK_LENGTH) {
            throw in.error(start + 4, name + " has block total length " + total + ", more than the "
                    + MAX_BLOCK_LENGTH + " bytes this reader accepts");
        }
        long left = in.size() - start;
        if (total > left) {
            throw in.error(start + 4, "truncated " + name + ": its block total length is " + total
                    + " but the file ends " + left + " bytes after the block's start");
        }
    }

    /** Refuses to hold more than {@link #MAX_BUFFERED_LENGTH} bytes of a block in memory at once. */
    private void checkBuffered(long offset, long length, String what) throws CaptureFormatException {
        if (length > MAX_BUFFERED_LENGTH) {
            throw in.error(offset, what + " of " + length + " bytes is more than the " + MAX_BUFFERED_LENGTH
                    + " bytes this reader holds in memory");
        }
    }

    /** §3.1: the trailing copy of the block total length must match the leading one. */
    private void checkTrailer(long start, long total, ByteBuffer tail, long tailOffset, String name)
            throws CaptureFormatException {
        long trailer = Integer.toUnsignedLong(tail.getInt(tail.limit() - 4));
        if (trailer != total) {
            throw in.error(tailOffset + tail.limit() - 4, name + " starting at offset " + start
                    + " ends with block total length " + trailer + " but starts with " + total);
        }
    }

    private static String blockName(int type) {
        return switch (type) {
            case Pcapng.INTERFACE_DESCRIPTION_BLOCK -> "Interface Description Block";
            case Pcapng.ENHANCED_PACKET_BLOCK -> "Enhanced Packet Block";
            case Pcapng.PACKET_BLOCK -> "Packet Block";
            case Pcapng.SIMPLE_PACKET_BLOCK -> "Simple Packet Block";
            default -> String.format("block of type 0x%08x", type);
        };
    }

    /** Interface Description Block options, defaulted as §4.2 says. */
    private static final class InterfaceOptions {
        String name;
        String description;
        long speed;
        int tsresol = TimestampScale.DEFAULT_TSRESOL;
        long tsoffset;
    }

    /** Enhanced Packet Block options; several opt_comment options are joined by line feeds. */
    private static final class PacketOptions {
        String comment;
        int flags;

        void addComment(String text) {
            comment = comment == null ? text : comment + "\n" + text;
        }
    }
}
