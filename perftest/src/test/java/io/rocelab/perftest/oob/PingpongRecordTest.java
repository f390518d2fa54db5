package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PingpongRecordTest {
    /** The client's record of the reference ibv_rc_pingpong capture. */
    static final String CAPTURED = "0000:000011:c3aaf4:00000000000000000000ffff0a4d000b";

    private static byte[] wire(String text) {
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[ascii.length + 1];
        System.arraycopy(ascii, 0, out, 0, ascii.length);
        return out;
    }

    @Test
    void encodesAndDecodes() throws Exception {
        PingpongRecord r = new PingpongRecord(0, 0x11, 0xc3aaf4, Gid.of(InetAddress.getByName("10.77.0.11")));
        assertArrayEquals(wire(CAPTURED), r.encode());
        assertEquals(52, r.encode().length);
        assertEquals(r, PingpongRecord.decode(wire(CAPTURED)));
    }

    @Test
    void malformedRecordsAreRefused() {
        OobFormatException e = assertThrows(OobFormatException.class,
                () -> PingpongRecord.decode(wire(CAPTURED.replace("c3aaf4", "c3aaf"))));
        assertTrue(e.getMessage().contains("expected 52 bytes, got 51"), e.getMessage());
        e = assertThrows(OobFormatException.class,
                () -> PingpongRecord.decode(wire(CAPTURED.replace("ffff0a4d", "ffff0a4z"))));
        assertTrue(e.getMessage().contains("field GID at offset 45"), e.getMessage());
        e = assertThrows(OobFormatException.class,
                () -> PingpongRecord.decode(wire(CAPTURED.replace("0000:000011:", "0000;000011:"))));
        assertTrue(e.getMessage().contains("expected ':' after LID"), e.getMessage());
    }

    @Property
    void everyRecordSurvivesTheWire(@ForAll @IntRange(max = 0xffff) int lid, @ForAll @IntRange(max = 0xffffff) int qpn,
                                    @ForAll @IntRange(max = 0xffffff) int psn, @ForAll @Size(16) byte[] gid) {
        PingpongRecord r = new PingpongRecord(lid, qpn, psn, Gid.of(gid));
        assertEquals(r, PingpongRecord.decode(r.encode()));
    }
}
