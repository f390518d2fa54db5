package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class KeyRecordTest {
    /** The client's record of the reference ib_write_bw capture, as text. */
    static final String CAPTURED = "0000:0001:000011:38277a:000002d2:000055933fbb7000:"
            + "00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:0b:00000000:";

    private static byte[] wire(String text) {
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[ascii.length + 1];
        System.arraycopy(ascii, 0, out, 0, ascii.length);
        return out;
    }

    @Test
    void encodesLikePerftestsSprintf() throws Exception {
        KeyRecord k = new KeyRecord(0, 1, 0x11, 0x38277a, 0x2d2, 0x55933fbb7000L,
                Gid.of(InetAddress.getByName("10.77.0.11")), 0);
        byte[] bytes = k.encode();
        assertEquals(108, bytes.length);
        assertArrayEquals(wire(CAPTURED), bytes);
    }

    @Test
    void decodesEveryField() {
        KeyRecord k = KeyRecord.decode(wire(CAPTURED));
        assertEquals(0, k.lid());
        assertEquals(1, k.outReads());
        assertEquals(0x11, k.qpn());
        assertEquals(0x38277a, k.psn());
        assertEquals(0x2d2, k.rkey());
        assertEquals(0x55933fbb7000L, k.vaddr());
        assertEquals("::ffff:10.77.0.11", k.gid().toIpv6Text());
        assertEquals(0, k.srqn());
    }

    @Test
    void fullWidthValuesAndUppercaseHexAreRead() {
        String text = "FFFF:ffff:FFFFFF:ffffff:FFFFFFFF:FFFFFFFFFFFFFFFF:"
                + "fe:80:00:00:00:00:00:00:02:11:22:ff:fe:33:44:55:DEADBEEF:";
        KeyRecord k = KeyRecord.decode(wire(text));
        assertEquals(0xffff, k.lid());
        assertEquals(0xffffff, k.qpn());
        assertEquals(0xffffffffL, k.rkey());
        assertEquals(-1L, k.vaddr());
        assertEquals(0xdeadbeefL, k.srqn());
        assertEquals(text.toLowerCase(), new String(k.encode(), 0, 107, StandardCharsets.US_ASCII));
    }

    @Test
    void recordWithoutGidIs59Bytes() {
        KeyRecord k = new KeyRecord(0x1a, 0x10, 0x48, 0x123456, 0xabc, 0x7f0000001000L, null, 0x99);
        byte[] bytes = k.encode();
        assertEquals(59, bytes.length);
        assertArrayEquals(wire("001a:0010:000048:123456:00000abc:00007f0000001000:00000099"), bytes);
        KeyRecord back = KeyRecord.decode(bytes, false);
        assertEquals(k, back);
        assertNull(back.gid());
    }

    @Test
    void malformedRecordsAreRefusedWithTheFieldNamed() {
        OobFormatException e = assertThrows(OobFormatException.class,
                () -> KeyRecord.decode(wire(CAPTURED.replace(":000011:", ":00g011:"))));
        assertTrue(e.getMessage().contains("field QPN at offset 10"), e.getMessage());
        assertTrue(e.getMessage().contains("\"00g011\""), e.getMessage());

        e = assertThrows(OobFormatException.class, () -> KeyRecord.decode(new byte[107]));
        assertTrue(e.getMessage().contains("expected 108 bytes, got 107"), e.getMessage());

        byte[] noNul = wire(CAPTURED);
        noNul[107] = ':';
        e = assertThrows(OobFormatException.class, () -> KeyRecord.decode(noNul));
        assertTrue(e.getMessage().contains("last byte must be NUL"), e.getMessage());

        byte[] badSeparator = wire(CAPTURED);
        badSeparator[4] = '-';
        e = assertThrows(OobFormatException.class, () -> KeyRecord.decode(badSeparator));
        assertTrue(e.getMessage().contains("expected ':' after LID at offset 4"), e.getMessage());

        e = assertThrows(OobFormatException.class, () -> KeyRecord.decode(wire(CAPTURED), false));
        assertTrue(e.getMessage().contains("expected 59 bytes"), e.getMessage());
    }

    @Test
    void outOfRangeFieldsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeyRecord(0, 1, 0x1000000, 0, 0, 0, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new KeyRecord(0, 1, 0, -1, 0, 0, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new KeyRecord(0x10000, 1, 0, 0, 0, 0, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new KeyRecord(0, 1, 0, 0, 0x100000000L, 0, null, 0));
    }

    @Property
    void everyRecordSurvivesTheWire(@ForAll("records") KeyRecord k) {
        byte[] bytes = k.encode();
        assertEquals(k.wireSize(), bytes.length);
        assertEquals(k, KeyRecord.decode(bytes, k.hasGid()));
    }

    @Provide
    Arbitrary<KeyRecord> records() {
        Arbitrary<Gid> gids = Arbitraries.bytes().array(byte[].class).ofSize(16).map(Gid::of).injectNull(0.2);
        return Combinators.combine(
                Arbitraries.integers().between(0, 0xffff),
                Arbitraries.integers().between(0, 0xffff),
                Arbitraries.integers().between(0, 0xffffff),
                Arbitraries.integers().between(0, 0xffffff),
                Arbitraries.longs().between(0, 0xffffffffL),
                Arbitraries.longs(),
                gids,
                Arbitraries.longs().between(0, 0xffffffffL))
                .as(KeyRecord::new);
    }
}
