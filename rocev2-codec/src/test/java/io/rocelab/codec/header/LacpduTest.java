package io.rocelab.codec.header;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The LACPDU's bytes as IEEE 802.1AX-2014 6.4.2.3 lays them out, and back. */
class LacpduTest {
    private static final Lacpdu PDU = new Lacpdu(
        new Lacpdu.Info(65535, 0x02_00_00_00_00_feL, 1, 255, 2, 0x3D),
        new Lacpdu.Info(32768, 0x52_54_00_77_01_01L, 0x0F, 128, 0x8001, 0x0F), 5);

    /** Written out by hand from the standard's figure 6-7. */
    private static final String BODY = "0101"
        + "0114" + "ffff" + "0200000000fe" + "0001" + "00ff" + "0002" + "3d" + "000000"
        + "0214" + "8000" + "525400770101" + "000f" + "0080" + "8001" + "0f" + "000000"
        + "0310" + "0005" + "00".repeat(12)
        + "0000" + "00".repeat(50);

    @Test
    void theFrameIsTheStandardsLayout() {
        ByteBuf f = PDU.frame(Unpooled.buffer().alloc(), 0x02_00_00_00_00_feL);
        try {
            assertEquals(124, f.readableBytes(), "14 + 110 bytes, over Ethernet's 60 already");
            assertEquals("0180c2000002" + "0200000000fe" + "8809" + BODY, ByteBufUtil.hexDump(f));
            assertTrue(Lacpdu.isLacp(f));
            assertEquals(PDU, Lacpdu.ofFrame(f));
        } finally {
            f.release();
        }
    }

    @Test
    void stateBitsReadAsWiresharkPrintsThem() {
        assertEquals("A.GSCD..", PDU.actor().stateString());
        assertTrue(PDU.actor().has(Lacpdu.DISTRIBUTING));
        assertEquals("ATGS....", PDU.partner().stateString());
    }

    @Test
    void malformedOrOtherSlowProtocolsAreNotLacpdus() {
        byte[] body = ByteBufUtil.decodeHexDump(BODY);
        ByteBuf b = Unpooled.wrappedBuffer(body);
        assertEquals(PDU, Lacpdu.read(b, 0, body.length));
        assertNull(Lacpdu.read(b, 0, 50), "too short");
        byte[] wrongTlv = body.clone();
        wrongTlv[2] = 2;
        assertNull(Lacpdu.read(Unpooled.wrappedBuffer(wrongTlv), 0, body.length), "actor TLV type must be 1");
        byte[] marker = body.clone();
        marker[0] = 2;
        assertNull(Lacpdu.read(Unpooled.wrappedBuffer(marker), 0, body.length), "subtype 2 is the marker protocol");
        byte[] v2 = body.clone();
        v2[1] = 2;
        assertEquals(PDU, Lacpdu.read(Unpooled.wrappedBuffer(v2), 0, body.length), "a later version reads as 1");
        assertArrayEquals(body, ByteBufUtil.decodeHexDump(BODY));
    }
}
