package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.oob.BwResult;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The small perftest messages, against bytes from the reference captures where there are some. */
class MessagesTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void versionIsSixteenNulPaddedBytes() {
        byte[] captured = hex("362e3036000000000000000000000000");
        assertArrayEquals(captured, PerftestVersion.rocelab().encode());
        PerftestVersion v = PerftestVersion.decode(captured);
        assertEquals("6.06", v.text());
        assertEquals(6.06, v.number());
        assertTrue(v.isCompatible());
        assertTrue(v.exchangesSystemData());
        assertTrue(v.sendsShortMtu());
        assertTrue(v.sendsLongIterations());
    }

    @Test
    void versionNumbersAreReadLikeAtof() {
        assertEquals(5.7, new PerftestVersion("5.70-beta").number());
        assertEquals(0.0, new PerftestVersion("abc").number());
        assertFalse(new PerftestVersion("5.60").isCompatible());
        assertFalse(new PerftestVersion("5.30").sendsShortMtu());
        assertTrue(new PerftestVersion("5.30").exchangesMtu());
        assertFalse(new PerftestVersion("5.0").exchangesMtu());
        assertFalse(new PerftestVersion("5.31").exchangesSystemData());
    }

    @Test
    void malformedVersionsAreRefused() {
        assertThrows(OobFormatException.class, () -> PerftestVersion.decode(new byte[15]));
        assertThrows(OobFormatException.class, () -> PerftestVersion.decode(hex("362e30363636363636363636363636ff")));
        assertThrows(OobFormatException.class, () -> PerftestVersion.decode(hex("362e3036000000000000000000000001")));
        assertThrows(OobFormatException.class, () -> PerftestVersion.decode(hex("362e3036363636363636363636363636")));
        assertThrows(IllegalArgumentException.class, () -> new PerftestVersion("0123456789abcdef"));
    }

    @Test
    void systemDataFieldsAreBigEndianInts() {
        assertArrayEquals(hex("00001000"), SystemData.encodeField(4096));
        assertArrayEquals(hex("00000040"), SystemData.encodeField(64));
        assertEquals(4096, SystemData.decodeField("cycle buffer", hex("00001000")));
        assertEquals(new SystemData(8192, 64), new SystemData(4096, 64).max(new SystemData(8192, 32)));
        assertThrows(OobFormatException.class, () -> SystemData.decodeField("cycle buffer", hex("001000")));
    }

    @Test
    void mtuIsTheEnumDigitAndNul() {
        PerftestVersion peer = PerftestVersion.rocelab();
        assertArrayEquals(hex("3300"), MtuMessage.encode(Mtu.MTU_1024, peer));
        assertArrayEquals(hex("35000000"), MtuMessage.encode(Mtu.MTU_4096, new PerftestVersion("5.30")));
        assertEquals(3, MtuMessage.decode(hex("3300")));
        assertEquals(5, MtuMessage.decode(hex("3500abcd")));
        assertEquals(Mtu.MTU_1024, MtuMessage.negotiate(Mtu.MTU_4096, 3));
        assertEquals(Mtu.MTU_1024, MtuMessage.negotiate(Mtu.MTU_1024, 5));
        assertEquals(Mtu.MTU_2048, MtuMessage.negotiate(Mtu.MTU_2048, 9));
        assertThrows(OobFormatException.class, () -> MtuMessage.decode(hex("3333")));
        assertThrows(OobFormatException.class, () -> MtuMessage.decode(hex("0000")));
    }

    @Test
    void bandwidthReportFromTheCapturedClient() {
        byte[][] fields = {
            hex("0000000000001000"), hex("0000000000000064"), hex("4019143f6301c722"),
            hex("40169a67023f40f4"), hex("3f57b37b8f9a4ac3"),
        };
        BwResult r = BwReportMessage.decode(fields);
        assertEquals(4096, r.size());
        assertEquals(100, r.iterations());
        assertEquals(6.269773051246178, r.peak());
        assertEquals(5.650783572302533, r.average());
        assertEquals(0.0014466005945094485, r.messageRate());
        byte[][] again = BwReportMessage.encode(r, PerftestVersion.rocelab());
        for (int i = 0; i < fields.length; i++) {
            assertArrayEquals(fields[i], again[i]);
        }
    }

    @Test
    void oldPeersGetAFourByteIterationCount() {
        PerftestVersion old = new PerftestVersion("5.32");
        assertArrayEquals(new int[] {8, 4, 8, 8, 8}, BwReportMessage.fieldSizes(old));
        byte[][] f = BwReportMessage.encode(new BwResult(8, 20, 1, 2, 3), old);
        assertArrayEquals(hex("00000014"), f[1]);
        assertEquals(20, BwReportMessage.decode(f).iterations());
        f[2] = new byte[7];
        assertThrows(OobFormatException.class, () -> BwReportMessage.decode(f));
    }

    @Test
    void doneIsFiveBytes() {
        assertArrayEquals(hex("646f6e6500"), DoneMessage.encode());
        DoneMessage.check(hex("646f6e6500"));
        assertThrows(OobFormatException.class, () -> DoneMessage.check(hex("646f6e6501")));
    }
}
