package io.rocelab.perftest.oob;

import java.nio.charset.StandardCharsets;

/**
 * A strict reader of the fixed-width, colon-separated hex text that both out-of-band formats use.
 * It knows the message it is reading so that every error names the message, the field and the
 * offset.
 */
final class HexFields {
    private final String message;
    private final byte[] bytes;
    private int pos;

    HexFields(String message, byte[] bytes) {
        this.message = message;
        this.bytes = bytes;
    }

    /** Checks the total length and the NUL terminator before any field is read. */
    static HexFields of(String message, byte[] bytes, int expectedLength) {
        if (bytes.length != expectedLength) {
            throw new OobFormatException(message + ": expected " + expectedLength + " bytes, got " + bytes.length);
        }
        if (bytes[expectedLength - 1] != 0) {
            throw new OobFormatException(message + ": last byte must be NUL, found 0x"
                    + Integer.toHexString(bytes[expectedLength - 1] & 0xff));
        }
        return new HexFields(message, bytes);
    }

    /** Reads exactly {@code digits} hex digits (either case). */
    long hex(String field, int digits) {
        if (pos + digits > bytes.length) {
            throw error(field, "runs past the end");
        }
        long value = 0;
        for (int i = 0; i < digits; i++) {
            int d = Character.digit(bytes[pos + i], 16);
            if (d < 0 || bytes[pos + i] < 0) {
                throw error(field, "expected " + digits + " hex digits, found \""
                        + printable(pos, digits) + "\"");
            }
            value = (value << 4) | d;
        }
        pos += digits;
        return value;
    }

    /** Reads one expected separator character. */
    void expect(char c, String after) {
        if (pos >= bytes.length || bytes[pos] != c) {
            String found = pos >= bytes.length ? "the end" : "\"" + printable(pos, 1) + "\"";
            throw new OobFormatException(message + ": expected '" + printableChar(c) + "' after " + after
                    + " at offset " + pos + ", found " + found);
        }
        pos++;
    }

    /** Checks that everything has been read. */
    void end() {
        if (pos != bytes.length) {
            throw new OobFormatException(message + ": " + (bytes.length - pos) + " unexpected bytes at offset " + pos);
        }
    }

    private OobFormatException error(String field, String what) {
        return new OobFormatException(message + ": field " + field + " at offset " + pos + ": " + what);
    }

    private String printable(int from, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < Math.min(bytes.length, from + count); i++) {
            sb.append(printableChar((char) (bytes[i] & 0xff)));
        }
        return sb.toString();
    }

    private static String printableChar(char c) {
        if (c >= 0x20 && c < 0x7f) {
            return String.valueOf(c);
        }
        return c == 0 ? "\\0" : String.format("\\x%02x", (int) c);
    }

    /** ASCII bytes of text written by the encoders, plus the C string's NUL. */
    static byte[] withNul(String text) {
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[ascii.length + 1];
        System.arraycopy(ascii, 0, out, 0, ascii.length);
        return out;
    }
}
