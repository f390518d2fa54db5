package io.rocelab.codec.lldp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.MacAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * LLDPDUs written and read back, a frame lldpd 1.0.16 sent on a veth read as lldpctl shows it, and
 * what IEEE 802.1AB-2016 9.2.7.7 has a receiver discard refused with an {@link LldpduException}
 * (and nothing else, whatever the bytes).
 */
class LldpduTest {
    static final long MAC = MacAddress.parse("02:00:00:00:aa:01");

    /** A switch port's LLDPDU with every TLV rocelab writes, DCBX included. */
    static Lldpdu full() {
        DcbxEts ets = new DcbxEts(false, false, 8, new int[] {0, 0, 0, 3, 4, 0, 6, 7},
            new int[] {50, 0, 0, 50, 0, 0, 0, 0}, new int[] {2, 0, 0, 2, 0, 0, 0, 0});
        DcbxEts reco = new DcbxEts(false, false, 0, new int[] {0, 1, 2, 3, 4, 5, 6, 7},
            new int[] {10, 10, 10, 40, 10, 10, 5, 5}, new int[] {2, 2, 2, 2, 2, 2, 2, 2});
        Dcbx d = new Dcbx(ets, reco, new DcbxPfc(false, false, 8, 0x18),
            List.of(DcbxApp.rocev2(3), DcbxApp.dscp(26, 3), new DcbxApp(3, DcbxApp.SELECTOR_ETHERTYPE, 0x8915)));
        return new Lldpdu(LldpId.chassisMac(MAC), LldpId.portLocal("etp1"), 121, "ARISTA01T1:Ethernet1", "leaf0",
            "SONiC Software Version: rocelab", new Lldpdu.Capabilities(0x14, 0x10),
            new Lldpdu.ManagementAddress(0x0A00_0001, 0), d);
    }

    @Test
    void everyTlvRoundTrips() {
        Lldpdu pdu = full();
        ByteBuf f = pdu.frame(ByteBufAllocator.DEFAULT, MAC);
        try {
            assertEquals(Lldpdu.NEAREST_BRIDGE, MacAddress.get(f, 0));
            assertEquals(MAC, MacAddress.get(f, 6));
            assertEquals(0x88CC, f.getUnsignedShort(12));
            assertEquals(pdu, Lldpdu.ofFrame(f));
        } finally {
            f.release();
        }
    }

    @Test
    void theSmallestLldpduIsPaddedToSixtyBytesAndReadsBack() {
        Lldpdu pdu = new Lldpdu(LldpId.chassisMac(MAC), LldpId.portMac(MAC), 0, null, null, null, null, null, null);
        ByteBuf f = pdu.frame(ByteBufAllocator.DEFAULT, MAC);
        try {
            assertEquals(60, f.readableBytes());
            Lldpdu back = Lldpdu.ofFrame(f);
            assertEquals(pdu, back);
            assertEquals(Dcbx.NONE, back.dcbx());
        } finally {
            f.release();
        }
    }

    @Test
    void dcbxBitsAreWhere8021QazAnnexDPutsThem() {
        ByteBuf b = Unpooled.buffer();
        full().write(b);
        byte[] bytes = new byte[b.readableBytes()];
        b.getBytes(0, bytes);
        String hex = HexFormat.of().formatHex(bytes);
        // ETS Configuration: type 127 length 25, OUI 00-80-c2, subtype 9, willing 0 CBS 0 max TCs 8 (as 0),
        // priorities 0..7 in TCs 0,0,0,3,4,0,6,7 two per byte, bandwidths, TSAs
        assertTrue(hex.contains("fe190080c209" + "00" + "0003" + "4067" + "3200003200000000" + "0200000200000000"), hex);
        // ETS Recommendation: subtype 10, a reserved byte
        assertTrue(hex.contains("fe190080c20a" + "00" + "01234567"), hex);
        // PFC Configuration: length 6, willing 0 MBC 0 cap 8, enable bits 3 and 4
        assertTrue(hex.contains("fe060080c20b" + "08" + "18"), hex);
        // Application Priority: length 5 + 3*3, reserved, then priority(3)|reserved(2)|selector(3) and the protocol
        assertTrue(hex.contains("fe0e0080c20c00" + "63" + "12b7" + "65" + "001a" + "61" + "8915"), hex);
        // End
        assertTrue(hex.endsWith("0000"), hex);
    }

    /** lldpd 1.0.16 on a veth ({@code lldpd -I lx1 -S "test sys descr"}, system name vm), as tshark captured it. */
    static final String LLDPD_FRAME = "0180c200000e6aab9e02fb9888cc0207046aab9e02fb980407036aab9e02fb98"
        + "060200780a02766d0c0e74657374207379732064657363720e04009c0080100c0501c0000201020000044200101811"
        + "02fe8000000000000068ab9efffe02fb9802000004420008036c7831fe0900120f0301000000"
        + "00fe0900120f0100800000360000";

    @Test
    void aFrameLldpdSentReadsAsLldpctlShowsIt() {
        ByteBuf f = Unpooled.wrappedBuffer(HexFormat.of().parseHex(LLDPD_FRAME));
        Lldpdu pdu = Lldpdu.ofFrame(f);
        assertEquals(new LldpId(LldpId.CHASSIS_MAC, "6a:ab:9e:02:fb:98"), pdu.chassisId());
        assertEquals("mac", pdu.chassisId().kind(true));
        assertEquals(new LldpId(LldpId.PORT_MAC, "6a:ab:9e:02:fb:98"), pdu.portId());
        assertEquals(120, pdu.ttl());
        assertEquals("vm", pdu.systemName());
        assertEquals("test sys descr", pdu.systemDescription());
        assertEquals("lx1", pdu.portDescription());
        // Bridge, Router, WLAN and Station supported; Station enabled
        assertEquals(new Lldpdu.Capabilities(0x9C, 0x80), pdu.capabilities());
        // the IPv4 management address is kept, the IPv6 one after it skipped
        assertEquals("192.0.2.1", pdu.managementAddress().address());
        assertEquals(1090, pdu.managementAddress().ifIndex());
        assertEquals(Dcbx.NONE, pdu.dcbx(), "802.3 TLVs are not DCBX: skipped");
    }

    @Test
    void whatTheStandardHasDiscardedIsRefusedWithAReason() {
        Lldpdu pdu = full();
        ByteBuf b = Unpooled.buffer();
        pdu.write(b);
        byte[] good = new byte[b.readableBytes()];
        b.getBytes(0, good);
        // cut short inside the TTL TLV
        assertMessage("runs past", slice(good, 0, 18));
        // only two TLVs, then nothing
        assertMessage("only 2 TLV", slice(good, 0, 2 + 7 + 2 + 5));
        // Port ID first
        byte[] swapped = good.clone();
        swapped[0] = (byte) (Lldpdu.TLV_PORT_ID << 1);
        assertMessage("TLV 1 must be Chassis ID", swapped);
        // a PFC TLV of length 5
        byte[] pfc = good.clone();
        int at = indexOf(pfc, HexFormat.of().parseHex("fe060080c20b"));
        pfc[at + 1] = 5;
        assertThrows(LldpduException.class, () -> Lldpdu.decode(Unpooled.wrappedBuffer(pfc), 0, pfc.length));
        // a MAC chassis ID of 5 bytes
        byte[] mac = HexFormat.of().parseHex("020604020000000004020761060200780000");
        assertMessage("not 6", mac);
        // a second TTL
        byte[] twice = HexFormat.of().parseHex("0207040200000000aa01" + "04020761" + "06020078" + "06020078" + "0000");
        assertThrows(LldpduException.class, () -> Lldpdu.decode(Unpooled.wrappedBuffer(twice), 0, twice.length));
    }

    @Test
    void randomBytesAndRandomDamageGiveAnLldpduOrAnLldpduExceptionOnly() {
        Random r = new Random(7);
        ByteBuf b = Unpooled.buffer();
        full().write(b);
        byte[] good = new byte[b.readableBytes()];
        b.getBytes(0, good);
        int decoded = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] x;
            if (i % 2 == 0) {
                x = good.clone();
                for (int k = 0; k < 1 + r.nextInt(4); k++) {
                    x[r.nextInt(x.length)] = (byte) r.nextInt(256);
                }
                x = slice(x, 0, r.nextInt(x.length + 1));
            } else {
                x = new byte[r.nextInt(80)];
                r.nextBytes(x);
            }
            try {
                Lldpdu.decode(Unpooled.wrappedBuffer(x), 0, x.length);
                decoded++;
            } catch (LldpduException expected) {
                assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
            }
        }
        assertTrue(decoded > 0, "some damaged LLDPDUs still decode");
    }

    private static void assertMessage(String part, byte[] bytes) {
        LldpduException e = assertThrows(LldpduException.class,
            () -> Lldpdu.decode(Unpooled.wrappedBuffer(bytes), 0, bytes.length));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    private static byte[] slice(byte[] a, int from, int to) {
        byte[] s = new byte[to - from];
        System.arraycopy(a, from, s, 0, s.length);
        return s;
    }

    private static int indexOf(byte[] a, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= a.length; i++) {
            for (int k = 0; k < what.length; k++) {
                if (a[i + k] != what[k]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
