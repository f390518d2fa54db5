package io.rocelab.codec.capture;

/**
 * Numbers of the pcapng format (draft-ietf-opsawg-pcapng) that the reader and the writer share:
 * block types (§10.1), option codes (§3.5, §4.1-§4.3) and the 32-bit alignment rule (§3.6.2).
 */
final class Pcapng {

    /** Section Header Block (§4.1); palindromic, so it reads the same in both byte orders. */
    static final int SECTION_HEADER_BLOCK = 0x0A0D0D0A;
    /** Interface Description Block (§4.2). */
    static final int INTERFACE_DESCRIPTION_BLOCK = 0x00000001;
    /** Packet Block, obsolete (Appendix A). */
    static final int PACKET_BLOCK = 0x00000002;
    /** Simple Packet Block (§4.4). */
    static final int SIMPLE_PACKET_BLOCK = 0x00000003;
    /** Enhanced Packet Block (§4.3). */
    static final int ENHANCED_PACKET_BLOCK = 0x00000006;

    /** Byte-order magic of the Section Header Block (§4.1). */
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    static final int MAJOR_VERSION = 1;
    static final int MINOR_VERSION = 0;

    /** Block type, block total length, ..., block total length: a block without a body (§3.1). */
    static final int MIN_BLOCK_LENGTH = 12;
    /** Type, length, byte-order magic, versions, section length, trailing length. */
    static final int MIN_SECTION_HEADER_LENGTH = 28;
    /** Type, length, link type, reserved, snap length, trailing length. */
    static final int MIN_INTERFACE_DESCRIPTION_LENGTH = 20;
    /** Type, length, interface id, timestamp (2 words), captured and original length, trailing length. */
    static final int MIN_ENHANCED_PACKET_LENGTH = 32;
    /** Same fixed part as the Enhanced Packet Block, the interface id being split in two 16-bit fields. */
    static final int MIN_PACKET_BLOCK_LENGTH = 32;
    /** Type, length, original length, trailing length. */
    static final int MIN_SIMPLE_PACKET_LENGTH = 16;

    // Options valid in every block (§3.5).
    static final int OPT_ENDOFOPT = 0;
    static final int OPT_COMMENT = 1;
    // Section Header Block options (§4.1).
    static final int SHB_USERAPPL = 4;
    // Interface Description Block options (§4.2).
    static final int IF_NAME = 2;
    static final int IF_DESCRIPTION = 3;
    static final int IF_SPEED = 8;
    static final int IF_TSRESOL = 9;
    static final int IF_TSOFFSET = 14;
    // Enhanced Packet Block options (§4.3); the Packet Block's pack_flags (Appendix A) has the same code.
    static final int EPB_FLAGS = 2;

    /** An option's length field is 16 bits (§3.5). */
    static final int MAX_OPTION_LENGTH = 0xFFFF;

    private Pcapng() {
    }

    /** {@code n} rounded up to a multiple of 4: fields are padded to 32 bits (§3.6.2). */
    static int pad4(int n) {
        return (n + 3) & ~3;
    }
}
