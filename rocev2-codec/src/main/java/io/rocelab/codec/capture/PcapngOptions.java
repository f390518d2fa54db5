package io.rocelab.codec.capture;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Walks the options of a pcapng block (draft-ietf-opsawg-pcapng §3.5): a list of 16-bit code,
 * 16-bit length, value padded to 32 bits, ending at opt_endofopt or at the end of the block,
 * whichever comes first. Every length is checked against the room left in the block, and every
 * problem is reported with its file offset.
 */
final class PcapngOptions {

    /** Receives one option; {@code value} holds exactly the option's value bytes, in section byte order. */
    @FunctionalInterface
    interface Handler {
        void option(int code, ByteBuffer value, long valueOffset) throws CaptureFormatException;
    }

    private final FileInput in;
    private final String blockName;

    PcapngOptions(FileInput in, String blockName) {
        this.in = in;
        this.blockName = blockName;
    }

    /**
     * Calls {@code handler} for each option in {@code block[from, to)}.
     *
     * @param blockOffset file offset of {@code block} index 0, for messages
     */
    void forEach(ByteBuffer block, int from, int to, long blockOffset, Handler handler) throws CaptureFormatException {
        int pos = from;
        while (pos < to) {
            if (to - pos < 4) {
                throw in.error(blockOffset + pos, blockName + " has " + (to - pos)
                        + " stray bytes where a 4-byte option header should be");
            }
            int code = Short.toUnsignedInt(block.getShort(pos));
            int length = Short.toUnsignedInt(block.getShort(pos + 2));
            if (code == Pcapng.OPT_ENDOFOPT) {
                return;
            }
            int valueStart = pos + 4;
            if (length > to - valueStart) {
                throw in.error(blockOffset + pos, blockName + " option " + code + " claims " + length
                        + " bytes but only " + (to - valueStart) + " are left in the block");
            }
            ByteBuffer value = block.slice(valueStart, length).order(block.order());
            handler.option(code, value, blockOffset + valueStart);
            pos = valueStart + Pcapng.pad4(length);
        }
    }

    /**
     * A UTF-8 string option: strings are not necessarily zero-terminated, but a zero byte ends
     * them (§3.5); invalid UTF-8 is repaired with U+FFFD (§3.6.3).
     */
    static String string(ByteBuffer value) {
        int length = 0;
        while (length < value.limit() && value.get(length) != 0) {
            length++;
        }
        byte[] bytes = new byte[length];
        value.get(0, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A fixed-length option's value, after checking its length (§3.5: report invalid lengths). */
    ByteBuffer fixed(int code, String name, ByteBuffer value, long valueOffset, int expectedLength)
            throws CaptureFormatException {
        if (value.limit() != expectedLength) {
            throw in.error(valueOffset - 4, blockName + " option " + name + " (" + code + ") has length "
                    + value.limit() + " instead of " + expectedLength);
        }
        return value;
    }
}
