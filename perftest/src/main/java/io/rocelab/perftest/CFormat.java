package io.rocelab.perftest;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The few C {@code printf} conversions perftest's output uses, reproduced exactly.
 *
 * <p>Java's {@link java.util.Formatter} differs from glibc in ways that show in a results table:
 * it rounds the shortest decimal form of a double half-up ({@code 0.125} becomes {@code 0.13},
 * glibc prints {@code 0.12}), prints {@code Infinity} and {@code NaN}, and has no {@code %#x}
 * rule that prints zero without its {@code 0x} prefix. Every number perftest prints goes through
 * here so that a rocelab table is character-for-character what perftest would print.
 */
public final class CFormat {
    private CFormat() {
    }

    /** {@code %.Nf}: the exact binary value rounded half-to-even, like glibc. */
    public static String fixed(double value, int precision) {
        if (Double.isNaN(value)) {
            return Double.doubleToRawLongBits(value) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String digits = new BigDecimal(value).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        boolean negative = value < 0 || (value == 0 && Double.doubleToRawLongBits(value) != 0);
        if (negative && !digits.startsWith("-")) {
            digits = "-" + digits;
        }
        return digits;
    }

    /** {@code %-W.Nf}: fixed point, left-justified in at least W columns. */
    public static String fixedLeft(double value, int width, int precision) {
        return left(fixed(value, precision), width);
    }

    /** {@code %g} with the default precision of 6 significant digits, trailing zeros removed. */
    public static String general(double value) {
        final int p = 6;
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return fixed(value, 0);
        }
        if (value == 0) {
            return Double.doubleToRawLongBits(value) != 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= p) {
            BigDecimal mantissa = rounded.movePointLeft(exponent).setScale(p - 1, RoundingMode.HALF_EVEN);
            String m = stripZeros(mantissa.toPlainString());
            String sign = exponent < 0 ? "-" : "+";
            int abs = Math.abs(exponent);
            return m + "e" + sign + (abs < 10 ? "0" : "") + abs;
        }
        return stripZeros(rounded.setScale(p - 1 - exponent, RoundingMode.HALF_EVEN).toPlainString());
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /** {@code %lu} / {@code %PRIu64}: the value as an unsigned 64-bit decimal. */
    public static String unsigned(long value) {
        return Long.toUnsignedString(value);
    }

    /** {@code %-Wlu}: unsigned decimal, left-justified in at least W columns. */
    public static String unsignedLeft(long value, int width) {
        return left(unsigned(value), width);
    }

    /** {@code %0Nx}: lowercase hex, zero-padded to at least N digits. */
    public static String hex(long value, int digits) {
        return zeroPad(Long.toHexString(value), digits);
    }

    /**
     * {@code %#0Wx}: lowercase hex with a {@code 0x} prefix, zero-padded to W columns including
     * the prefix. C gives zero no prefix at all, so {@code %#04x} of 0 is {@code 0000} — which is
     * why perftest prints "LID 0000" on RoCE but "QPN 0x0011".
     */
    public static String alternateHex(long value, int width) {
        if (value == 0) {
            return zeroPad("0", width);
        }
        return "0x" + zeroPad(Long.toHexString(value), width - 2);
    }

    /** {@code %0Nd} for a non-negative value. */
    public static String decimal(long value, int digits) {
        return zeroPad(Long.toString(value), digits);
    }

    /** Pads on the right with spaces to at least {@code width} characters ({@code %-Ws}). */
    public static String left(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return s + " ".repeat(width - s.length());
    }

    /** Pads on the left with spaces to at least {@code width} characters ({@code %Ws}). */
    public static String right(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return " ".repeat(width - s.length()) + s;
    }

    private static String zeroPad(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return "0".repeat(width - s.length()) + s;
    }
}
