package io.rocelab.perftest.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Number parsing with the rules of C's {@code strtol(s, &end, 0)}, which is how perftest reads
 * its flags: optional sign, {@code 0x} for hex, a leading {@code 0} for octal, decimal otherwise.
 * Unlike perftest, which silently reads "4k" as 4, anything after the number is an error.
 */
public final class CNumbers {
    private static final Pattern INTEGER =
            Pattern.compile("\\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)");

    private CNumbers() {
    }

    /** The value, or null when the text is not a whole C integer literal or does not fit a long. */
    public static Long parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = INTEGER.matcher(text);
        if (!m.matches()) {
            return null;
        }
        String digits = m.group(2);
        int radix = 10;
        if (digits.startsWith("0x") || digits.startsWith("0X")) {
            digits = digits.substring(2);
            radix = 16;
        } else if (digits.length() > 1 && digits.startsWith("0")) {
            digits = digits.substring(1);
            radix = 8;
        }
        try {
            long v = Long.parseLong(digits, radix);
            return "-".equals(m.group(1)) ? -v : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A C {@code strtof}-style decimal, or null. */
    static Double parseDouble(String text) {
        if (text == null) {
            return null;
        }
        try {
            String t = text.trim();
            if (t.isEmpty() || t.endsWith("d") || t.endsWith("D") || t.endsWith("f") || t.endsWith("F")) {
                return null;
            }
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
