package io.rocelab.perftest.oob;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A perftest protocol version: the first thing two perftest sides exchange, 16 bytes of
 * NUL-padded text such as {@code "6.06"}. Each side reads the other's version as a number and uses
 * it to decide what follows: whether the system data and the MTU are exchanged, how wide the
 * iteration count of the final report is, and whether to go on at all.
 *
 * <p>rocelab speaks {@value #ROCELAB} — the version of perftest 4.5-0.17 and 4.5-0.18, and the one
 * the real perftest in the reference captures announces. Announcing it also keeps newer perftest
 * peers (6.28 and later) from starting their parameter negotiation, which they only begin with a
 * peer of 6.28 or later.
 *
 * @param text the version as sent, without its padding
 */
public record PerftestVersion(String text) {

    /** The version rocelab announces. */
    public static final String ROCELAB = "6.06";
    /** Bytes of a version message ({@code MAX_VERSION}). */
    public static final int WIRE_SIZE = 16;
    /** perftest refuses peers older than this ({@code check_version_compatibility}). */
    public static final double OLDEST_COMPATIBLE = 5.70;

    private static final Pattern LEADING_NUMBER = Pattern.compile("^\\s*[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");

    public PerftestVersion {
        Objects.requireNonNull(text, "text");
        if (text.length() > WIRE_SIZE - 1) {
            throw new IllegalArgumentException("a perftest version has at most 15 characters, got \"" + text + "\"");
        }
    }

    /** The version rocelab announces. */
    public static PerftestVersion rocelab() {
        return new PerftestVersion(ROCELAB);
    }

    /**
     * The version as a number, read like C's {@code atof}: the leading decimal number, 0 when there
     * is none. "6.06" is 6.06; "5.70-beta" is 5.7.
     */
    public double number() {
        Matcher m = LEADING_NUMBER.matcher(text);
        return m.find() ? Double.parseDouble(m.group().trim()) : 0.0;
    }

    /** True when this version is {@code version} or newer. */
    public boolean atLeast(double version) {
        return number() >= version;
    }

    /** perftest stops unless the peer is 5.70 or newer. */
    public boolean isCompatible() {
        return atLeast(OLDEST_COMPATIBLE);
    }

    /** Whether a peer of this version exchanges page size and cache line size (5.32 and later). */
    public boolean exchangesSystemData() {
        return atLeast(5.32);
    }

    /** Whether a peer of this version exchanges its MTU (5.1 and later). */
    public boolean exchangesMtu() {
        return atLeast(5.1);
    }

    /** Whether the MTU message is 2 bytes (5.31 and later) rather than 4. */
    public boolean sendsShortMtu() {
        return atLeast(5.31);
    }

    /** Whether the report's iteration count is 8 bytes (5.33 and later) rather than 4. */
    public boolean sendsLongIterations() {
        return atLeast(5.33);
    }

    /** The 16 wire bytes: the text, then NULs. */
    public byte[] encode() {
        byte[] out = new byte[WIRE_SIZE];
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, out, 0, ascii.length);
        return out;
    }

    /**
     * Reads 16 wire bytes: printable text up to the first NUL, then only NULs (what C's
     * {@code strncpy} into a zeroed buffer produces).
     */
    public static PerftestVersion decode(byte[] wire) {
        if (wire.length != WIRE_SIZE) {
            throw new OobFormatException("perftest version: expected 16 bytes, got " + wire.length);
        }
        int end = 0;
        while (end < WIRE_SIZE && wire[end] != 0) {
            int c = wire[end] & 0xff;
            if (c < 0x20 || c >= 0x7f) {
                throw new OobFormatException("perftest version: byte " + end + " is not printable (0x"
                        + Integer.toHexString(c) + ")");
            }
            end++;
        }
        if (end == WIRE_SIZE) {
            throw new OobFormatException("perftest version: no NUL terminator in 16 bytes");
        }
        for (int i = end; i < WIRE_SIZE; i++) {
            if (wire[i] != 0) {
                throw new OobFormatException("perftest version: byte " + i + " after the terminator is 0x"
                        + Integer.toHexString(wire[i] & 0xff) + ", not NUL padding");
            }
        }
        return new PerftestVersion(new String(wire, 0, end, StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return text;
    }
}
