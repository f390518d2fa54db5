package io.rocelab.codec.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.GoldenVectors;
import io.rocelab.codec.testkit.GoldenVectors.Vector;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Golden frames through real Netty pipelines ({@link EmbeddedChannel}), in and out. */
class RoceFrameCodecTest {

    @Test
    void everyGoldenFrameDecodesToAPacket() {
        RoceFrameDecoder decoder = new RoceFrameDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        for (Vector v : GoldenVectors.all()) {
            assertTrue(ch.writeInbound(Unpooled.copiedBuffer(v.frame())), v.name());
            RocePacket p = ch.readInbound();
            try {
                assertEquals(v.json().at("/bth/opcode").asInt(), p.opcode().code(), v.name());
                assertEquals(v.json().at("/bth/psn").asInt(), p.psn());
                assertEquals(v.json().at("/bth/dqpn").asInt(), p.destQp());
                assertEquals(v.json().get("bth_offset").asInt(), p.bthOffset());
                assertEquals(v.json().get("payload_len").asInt(), p.payloadLength());
                assertTrue(p.icrcVerified());
                assertEquals(v.frame().length, p.content().readableBytes());
            } finally {
                p.release();
            }
        }
        assertEquals(41, decoder.counters().accepted());
        assertEquals(0, decoder.counters().totalDropped());
        assertFalse(ch.finish());
    }

    @Test
    void aBadIcrcIsCountedAndDropped() {
        RoceFrameDecoder decoder = new RoceFrameDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        byte[] frame = GoldenVectors.all().get(0).frame().clone();
        frame[frame.length - 1] ^= 0x40;
        assertFalse(ch.writeInbound(Unpooled.copiedBuffer(frame)));
        assertEquals(1, decoder.counters().dropped(DecodeError.BAD_ICRC));
        // a payload byte changed: same reason
        frame = GoldenVectors.all().get(0).frame().clone();
        frame[60] ^= 1;
        assertFalse(ch.writeInbound(Unpooled.copiedBuffer(frame)));
        assertEquals(2, decoder.counters().dropped(DecodeError.BAD_ICRC));
        assertFalse(ch.finish());
    }

    @Test
    void aBadIpChecksumIsCountedAndDropped() {
        RoceFrameDecoder decoder = new RoceFrameDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        byte[] frame = GoldenVectors.all().get(0).frame().clone();
        frame[14 + Ipv4.CHECKSUM] ^= 0x01;
        assertFalse(ch.writeInbound(Unpooled.copiedBuffer(frame)));
        assertEquals(1, decoder.counters().dropped(DecodeError.BAD_IPV4_CHECKSUM));
        assertFalse(ch.finish());
    }

    @Test
    void truncatedFramesAreCountedByReason() {
        RoceFrameDecoder decoder = new RoceFrameDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        byte[] frame = GoldenVectors.all().get(0).frame();
        for (int len = 0; len < frame.length; len++) {
            assertFalse(ch.writeInbound(Unpooled.copiedBuffer(frame, 0, len)), "length " + len);
        }
        assertEquals(frame.length, decoder.counters().totalDropped());
        assertEquals(14, decoder.counters().dropped(DecodeError.TRUNCATED_ETHERNET));
        assertTrue(decoder.counters().dropped(DecodeError.TRUNCATED_IP) > 0);
        assertFalse(ch.finish());
    }

    @Test
    void nonRoceFramesPassThroughUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new RoceFrameDecoder());
        ByteBuf arp = Unpooled.buffer(60);
        Ethernet.write(arp, 0, MacAddress.BROADCAST, 0x0c42a1000001L, EtherType.ARP);
        Arp.write(arp, Ethernet.LENGTH, Arp.REQUEST, 0x0c42a1000001L, Ipv4.parse("10.0.0.1"), 0,
                Ipv4.parse("10.0.0.2"));
        arp.writerIndex(60);
        String hex = ByteBufUtil.hexDump(arp);
        assertTrue(ch.writeInbound(arp));
        ByteBuf out = ch.readInbound();
        assertEquals(hex, ByteBufUtil.hexDump(out));
        out.release();
        assertFalse(ch.finish());
    }

    @Test
    void encoderFillsIcrcAndChecksumOfAFrameBuiltInPlace() {
        Vector v = GoldenVectors.all().get(0);
        byte[] broken = v.frame().clone();
        // zero the ICRC and the IPv4 checksum: the encoder must put both back
        for (int i = broken.length - 4; i < broken.length; i++) {
            broken[i] = 0;
        }
        broken[14 + Ipv4.CHECKSUM] = 0;
        broken[14 + Ipv4.CHECKSUM + 1] = 0;
        EmbeddedChannel in = new EmbeddedChannel(new RoceFrameDecoder());
        // decode the original to get a packet shape, then swap in the broken bytes
        in.writeInbound(Unpooled.copiedBuffer(v.frame()));
        RocePacket original = in.readInbound();
        RocePacket packet = original.replace(Unpooled.copiedBuffer(broken));
        original.release();
        EmbeddedChannel out = new EmbeddedChannel(new RoceFrameEncoder());
        assertTrue(out.writeOutbound(packet));
        ByteBuf wire = out.readOutbound();
        assertEquals(HexFormat.of().formatHex(v.frame()), ByteBufUtil.hexDump(wire));
        wire.release();
        assertFalse(out.finish());
        assertFalse(in.finish());
    }

    @Test
    void encoderSerializesRoceFrameValues() {
        RoceFrame frame = new RoceFrame().ethernet(2, 1).ipv4(Ipv4.parse("10.0.0.1"), Ipv4.parse("10.0.0.2"))
                .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x1234, 5).payload(new byte[] {1, 2, 3, 4, 5})
                .destQp(0x11).psn(7).ackReq(true);
        EmbeddedChannel out = new EmbeddedChannel(new RoceFrameEncoder(), new RoceFrameDecoder());
        assertTrue(out.writeOutbound(frame));
        ByteBuf wire = out.readOutbound();
        // loop it back through the decoder: it must verify
        EmbeddedChannel in = new EmbeddedChannel(new RoceFrameDecoder());
        assertTrue(in.writeInbound(wire));
        RocePacket p = in.readInbound();
        assertEquals(Opcode.RC_RDMA_WRITE_ONLY, p.opcode());
        assertEquals(5, p.payloadLength());
        assertEquals(3, p.content().getUnsignedByte(p.content().readerIndex() + p.payloadOffset() + 2));
        p.release();
        assertFalse(in.finish());
        assertFalse(out.finish());
    }
}
