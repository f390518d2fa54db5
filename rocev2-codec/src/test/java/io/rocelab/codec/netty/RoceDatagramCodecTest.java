package io.rocelab.codec.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.codec.EncoderException;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.GoldenVectors;
import io.rocelab.codec.testkit.GoldenVectors.Vector;
import java.net.InetSocketAddress;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The UDP endpoint mode codec: DatagramPacket (BTH .. ICRC) in and out. */
class RoceDatagramCodecTest {
    private static final InetSocketAddress A = new InetSocketAddress("127.0.0.1", 50000);
    private static final InetSocketAddress B = new InetSocketAddress("127.0.0.1", 4791);

    private static byte[] udpPayload(Vector v) {
        int bth = v.json().get("bth_offset").asInt();
        int end = v.json().get("icrc_offset").asInt() + 4;
        return Arrays.copyOfRange(v.frame(), bth, end);
    }

    @Test
    void udpPayloadsOfEveryGoldenFrameDecode() {
        RoceDatagramDecoder decoder = new RoceDatagramDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        for (Vector v : GoldenVectors.all()) {
            assertTrue(ch.writeInbound(new DatagramPacket(Unpooled.copiedBuffer(udpPayload(v)), B, A)));
            RocePacket p = ch.readInbound();
            assertEquals(v.json().at("/bth/opcode_name").asText(), p.opcode().name());
            assertEquals(0, p.bthOffset());
            assertEquals(-1, p.l3Offset());
            assertEquals(v.json().get("payload_len").asInt(), p.payloadLength());
            assertFalse(p.icrcVerified(), "the ICRC cannot be checked on a UDP socket");
            assertEquals(A, p.sender());
            p.release();
        }
        assertEquals(41, decoder.counters().accepted());
        assertFalse(ch.finish());
    }

    @Test
    void shortDatagramsAreCountedAndDropped() {
        RoceDatagramDecoder decoder = new RoceDatagramDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertFalse(ch.writeInbound(new DatagramPacket(Unpooled.buffer(8).writeZero(8), B, A)));
        // a READ REQUEST cut inside its RETH
        byte[] read = udpPayload(GoldenVectors.all().get(12));
        assertFalse(ch.writeInbound(new DatagramPacket(Unpooled.copiedBuffer(read, 0, 20), B, A)));
        assertEquals(1, decoder.counters().dropped(DecodeError.TRUNCATED_BTH));
        assertEquals(1, decoder.counters().dropped(DecodeError.TRUNCATED_HEADERS));
        assertFalse(ch.finish());
    }

    @Test
    void encoderAddressesTheDatagram() {
        Vector v = GoldenVectors.all().get(10);
        byte[] payload = udpPayload(v);
        RocePacket p = new DefaultRocePacket(Unpooled.copiedBuffer(payload), 0, 28, 16, payload.length - 4, -1, 4,
                Opcode.RC_RDMA_WRITE_ONLY, false, A, B);
        EmbeddedChannel ch = new EmbeddedChannel(new RoceDatagramEncoder());
        assertTrue(ch.writeOutbound(p));
        DatagramPacket d = ch.readOutbound();
        assertEquals(B, d.recipient());
        ByteBuf c = d.content();
        assertEquals(ByteBufUtil.hexDump(payload), ByteBufUtil.hexDump(c));
        d.release();
        RocePacket unaddressed = new DefaultRocePacket(Unpooled.copiedBuffer(payload), 0, 28, 16,
                payload.length - 4, -1, 4, Opcode.RC_RDMA_WRITE_ONLY, false, null, null);
        assertThrows(EncoderException.class, () -> ch.writeOutbound(unaddressed));
        assertEquals(0, unaddressed.refCnt(), "the encoder released what it could not send");
        assertFalse(ch.finish());
    }
}
