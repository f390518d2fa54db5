package io.rocelab.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Expected strings are what glibc's printf prints for the same conversions. */
class CFormatTest {

    @Test
    void fixedRoundsTheExactBinaryValueHalfToEven() {
        assertEquals("0.12", CFormat.fixed(0.125, 2));
        assertEquals("0.14", CFormat.fixed(0.135, 2));
        assertEquals("2.67", CFormat.fixed(2.675, 2));
        assertEquals("-0.00", CFormat.fixed(-0.001, 2));
        assertEquals("0.333333", CFormat.fixed(1.0 / 3, 6));
        assertEquals("100000000000000000000.00", CFormat.fixed(1e20, 2));
    }

    @Test
    void fixedSpellsNonFiniteValuesLikeC() {
        assertEquals("inf", CFormat.fixed(Double.POSITIVE_INFINITY, 2));
        assertEquals("-inf", CFormat.fixed(Double.NEGATIVE_INFINITY, 2));
        assertEquals("nan", CFormat.fixed(Double.longBitsToDouble(0x7ff8000000000000L), 2));
        assertEquals("-nan", CFormat.fixed(Double.longBitsToDouble(0xfff8000000000000L), 2));
    }

    @Test
    void generalMatchesPercentG() {
        assertEquals("160.5", CFormat.general(160.5));
        assertEquals("0.0001234", CFormat.general(0.0001234));
        assertEquals("1.234e-05", CFormat.general(0.00001234));
        assertEquals("123456", CFormat.general(123456.0));
        assertEquals("1.23457e+06", CFormat.general(1234567.0));
        assertEquals("1e+06", CFormat.general(999999.5));
        assertEquals("2", CFormat.general(2.0));
        assertEquals("1e-10", CFormat.general(1e-10));
        assertEquals("12.3457", CFormat.general(12.3456789));
        assertEquals("0", CFormat.general(0.0));
    }

    @Test
    void alternateHexHasNoPrefixForZero() {
        assertEquals("0000", CFormat.alternateHex(0, 4));
        assertEquals("0x01", CFormat.alternateHex(1, 4));
        assertEquals("0xffff", CFormat.alternateHex(0xffff, 4));
        assertEquals("000000", CFormat.alternateHex(0, 6));
        assertEquals("0x0011", CFormat.alternateHex(0x11, 6));
        assertEquals("0xabcdef", CFormat.alternateHex(0xabcdef, 6));
        assertEquals("0x0055933fbb7000", CFormat.alternateHex(0x55933fbb7000L, 16));
    }

    @Test
    void paddingAndUnsigned() {
        assertEquals("4096   ", CFormat.unsignedLeft(4096, 7));
        assertEquals("8388608", CFormat.unsignedLeft(8388608, 7));
        assertEquals("18446744073709551615", CFormat.unsigned(-1L));
        assertEquals("6.27   ", CFormat.fixedLeft(6.2697, 7, 2));
        assertEquals("   ab", CFormat.right("ab", 5));
        assertEquals("00ff", CFormat.hex(255, 4));
        assertEquals("07", CFormat.decimal(7, 2));
    }
}
