package io.rocelab.codec.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.FrameSummary;
import io.rocelab.codec.ParsedFrame;
import org.junit.jupiter.api.Test;

/** The 802.3x PAUSE frame as IEEE 802.3 Annex 31B lays it out, told apart from PFC by its opcode. */
class PauseTest {
    private static final long SRC = MacAddress.parse("02:00:00:00:00:fe");

    @Test
    void theFrameIsAnnex31bsLayout() {
        ByteBuf f = Unpooled.buffer(64);
        Pause.writeFrame(f, SRC, 0xFFFF);
        assertEquals(60, f.readableBytes(), "the Ethernet minimum without the FCS");
        assertEquals("0180c2000001" + "0200000000fe" + "8808" + "0001" + "ffff" + "00".repeat(42),
            ByteBufUtil.hexDump(f));
        assertTrue(Pause.isPause(f, Ethernet.LENGTH));
        assertEquals(0xFFFF, Pause.quanta(f, Ethernet.LENGTH));
    }

    @Test
    void theReceivePathTellsPauseFromPfcByTheOpcode() {
        ByteBuf pause = Unpooled.buffer(64);
        Pause.writeFrame(pause, SRC, 394);
        ParsedFrame p = new ParsedFrame();
        assertNull(p.parse(pause));
        assertEquals(FrameKind.PAUSE, p.kind());
        assertEquals(394, Pause.quanta(pause, p.l3Offset()));
        assertEquals("PAUSE 02:00:00:00:00:fe quanta 394", new FrameSummary().describe(p, new StringBuilder())
            .toString().trim());

        ByteBuf pfc = Unpooled.buffer(64).writeZero(60);
        Ethernet.write(pfc, 0, MacAddress.PAUSE_MULTICAST, SRC, EtherType.MAC_CONTROL);
        Pfc.write(pfc, Ethernet.LENGTH, 1 << 3, new int[] {0, 0, 0, 0xFFFF, 0, 0, 0, 0});
        ParsedFrame q = new ParsedFrame();
        assertNull(q.parse(pfc));
        assertEquals(FrameKind.PFC, q.kind());
        assertFalse(Pause.isPause(pfc, q.l3Offset()));
    }

    @Test
    void aResumeIsAZeroTimeAndTheTimeIsSixteenBits() {
        ByteBuf f = Unpooled.buffer(64);
        Pause.writeFrame(f, SRC, 0);
        assertEquals(0, Pause.quanta(f, Ethernet.LENGTH));
        assertThrows(IllegalArgumentException.class, () -> Pause.write(Unpooled.buffer(4).writeZero(4), 0, 0x10000));
    }
}
