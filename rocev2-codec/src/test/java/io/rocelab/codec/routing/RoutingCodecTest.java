package io.rocelab.codec.routing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BGP-4 messages, BFD control packets and the frames that carry them, byte for byte. */
class RoutingCodecTest {

    private static byte[] bytes(BgpMessage m) {
        ByteBuf b = Unpooled.buffer();
        BgpMessage.write(m, b);
        return ByteBufUtil.getBytes(b);
    }

    @Test
    void aKeepaliveIsTheNineteenByteHeader() {
        assertEquals("ffffffffffffffffffffffffffffffff001304", ByteBufUtil.hexDump(bytes(new BgpMessage.Keepalive())));
    }

    @Test
    void anOpenRoundTripsAndAFourOctetAsTravelsInItsCapability() {
        BgpMessage.Open open = new BgpMessage.Open(65100, 9, Ipv4.parse("10.255.0.1"));
        assertEquals(open, BgpMessage.read(Unpooled.wrappedBuffer(bytes(open)), 0));
        byte[] big = bytes(new BgpMessage.Open(4_200_000_001L, 180, 1));
        assertEquals("5ba0", ByteBufUtil.hexDump(big, 20, 2), "AS_TRANS (23456) in My Autonomous System");
        assertEquals(4_200_000_001L, ((BgpMessage.Open) BgpMessage.read(Unpooled.wrappedBuffer(big), 0)).asn(),
            "the real AS from the capability");
    }

    @Test
    void theOpenFieldsAreWhereRfc4271PutsThem() {
        byte[] b = bytes(new BgpMessage.Open(65100, 9, Ipv4.parse("10.255.0.1")));
        assertEquals(19 + 10 + 20, b.length);
        assertEquals("ffffffffffffffffffffffffffffffff" + "0031" + "01" + "04" + "fe4c" + "0009" + "0aff0001" + "14"
            + "02" + "12" + "0104" + "00010001" + "0104" + "00020001" + "41" + "04" + "0000fe4c", ByteBufUtil.hexDump(b));
    }

    @Test
    void anUpdateRoundTripsWithWithdrawnRoutesPathAttributesAndNlri() {
        BgpMessage.Update u = new BgpMessage.Update(List.of(Ipv4Prefix.parse("10.0.2.0/24")), List.of(65100L, 65001L),
            Ipv4.parse("10.254.0.0"), List.of(Ipv4Prefix.parse("10.0.0.0/24"), Ipv4Prefix.parse("10.0.1.7/32")));
        byte[] b = bytes(u);
        assertEquals(u, BgpMessage.read(Unpooled.wrappedBuffer(b), 0));
        String hex = ByteBufUtil.hexDump(b);
        // withdrawn routes: length 4, /24 in three octets; path attributes: ORIGIN IGP, AS_PATH one AS_SEQUENCE
        // of two four-octet ASNs, NEXT_HOP
        assertTrue(hex.startsWith("ffffffffffffffffffffffffffffffff" + String.format("%04x", b.length) + "02"
            + "0004" + "180a0002" + "0018" + "40010100" + "40020a02020000fe4c0000fde9" + "4003040afe0000"
            + "180a0000" + "200a000107"), hex);
        BgpMessage.Update withdrawOnly = new BgpMessage.Update(List.of(Ipv4Prefix.parse("0.0.0.0/0")), List.of(), 0,
            List.of());
        assertEquals("ffffffffffffffffffffffffffffffff0018020001000000", ByteBufUtil.hexDump(bytes(withdrawOnly)));
        assertEquals(withdrawOnly, BgpMessage.read(Unpooled.wrappedBuffer(bytes(withdrawOnly)), 0));
    }

    @Test
    void ipv6PrefixesTravelInMpReachAndMpUnreachNlri() {
        BgpMessage.Update u = new BgpMessage.Update(List.of(Ipv6Prefix.parse("fd00:0:2::/64")), List.of(65100L),
            Ipv4.parse("10.254.0.0"), List.of(Ipv4Prefix.parse("10.0.0.0/24"), Ipv6Prefix.parse("fd00::/64")));
        byte[] b = bytes(u);
        assertEquals(u, BgpMessage.read(Unpooled.wrappedBuffer(b), 0));
        String hex = ByteBufUtil.hexDump(b);
        // MP_REACH_NLRI: flags 0x90, type 14, length 30: AFI 2, SAFI 1, a 16-byte next hop (::ffff:10.254.0.0),
        // reserved 0, fd00::/64 in 8 octets
        assertTrue(hex.contains("900e001e" + "000201" + "10" + "00000000000000000000ffff0afe0000" + "00"
            + "40fd00000000000000"), hex);
        // MP_UNREACH_NLRI: type 15, AFI 2, SAFI 1, fd00:0:2::/64
        assertTrue(hex.contains("900f000c" + "000201" + "40fd00000000020000"), hex);
        assertEquals("fd00:0:2::/64", Ipv6Prefix.parse("fd00:0:2::1/64").toString());
        assertEquals("::/0", new Ipv6Prefix(0, 0, 0).toString());
        assertEquals("fd00::1:0:0:1/128", Ipv6Prefix.parse("fd00:0:0:0:1:0:0:1").toString());
    }

    @Test
    void aNotificationCarriesItsCodeAndSubcode() {
        BgpMessage.Notification n = new BgpMessage.Notification(BgpMessage.HOLD_TIMER_EXPIRED, 0);
        assertEquals("ffffffffffffffffffffffffffffffff0015030400", ByteBufUtil.hexDump(bytes(n)));
        assertEquals(n, BgpMessage.read(Unpooled.wrappedBuffer(bytes(n)), 0));
        byte[] bad = bytes(n);
        bad[3] = 0;
        assertThrows(IllegalArgumentException.class, () -> BgpMessage.read(Unpooled.wrappedBuffer(bad), 0));
    }

    @Test
    void aBfdControlPacketIsVersionOneAnd24Bytes() {
        BfdPacket p = new BfdPacket(BfdPacket.UP, 0, 3, 7, 9, 300_000, 300_000);
        ByteBuf b = Unpooled.buffer();
        p.write(b);
        assertEquals("20c003180000000700000009000493e0000493e000000000", ByteBufUtil.hexDump(b));
        assertEquals(p, BfdPacket.read(b, 0));
    }

    @Test
    void theFramesCarryCs6Ttl255AndGoodChecksums() {
        long dst = 0x02_01_00_00_01_01L;
        long src = 0x02_01_00_00_00_01L;
        int a = Ipv4.parse("10.254.0.1");
        int z = Ipv4.parse("10.254.0.0");
        ByteBuf f = ControlFrame.bgp(ByteBufAllocator.DEFAULT, dst, src, a, z, 49153, ControlFrame.BGP_PORT, 1000, 2000,
            new BgpMessage.Keepalive());
        int l3 = Ethernet.LENGTH;
        int l4 = l3 + Ipv4.MIN_LENGTH;
        assertEquals(48, Ipv4.dscp(f, l3));
        assertEquals(255, Ipv4.ttl(f, l3));
        assertTrue(Ipv4.checksumOk(f, l3));
        assertTrue(ControlFrame.tcpChecksumOk(f, l3, l4));
        assertEquals(ControlFrame.BGP_PORT, f.getUnsignedShort(l4 + 2));
        assertEquals(1000, f.getInt(l4 + 4));
        assertEquals(2000, f.getInt(l4 + 8));
        assertEquals(20 + 20 + 19, Ipv4.totalLength(f, l3));
        assertEquals(new BgpMessage.Keepalive(), BgpMessage.read(f, ControlFrame.TCP_PAYLOAD));
        f.setByte(l4 + 30, f.getByte(l4 + 30) ^ 1);
        assertTrue(!ControlFrame.tcpChecksumOk(f, l3, l4), "a flipped bit breaks the checksum");
        f.release();
        ByteBuf g = ControlFrame.bfd(ByteBufAllocator.DEFAULT, dst, src, a, z, 49152,
            new BfdPacket(BfdPacket.DOWN, 0, 3, 1, 0, 1000, 1000));
        assertEquals(Ethernet.LENGTH + Ipv4.MIN_LENGTH + 8 + 24, g.readableBytes());
        assertEquals(BfdPacket.PORT, g.getUnsignedShort(l4 + 2));
        assertEquals(8 + 24, g.getUnsignedShort(l4 + 4));
        assertEquals(0, ControlFrame.checksum(g, l4, 32, Ipv4.PROTO_UDP, a, z), "the UDP checksum sums to zero");
        assertArrayEquals(new byte[] {0x20, 0x40, 3, 24}, new byte[] {g.getByte(l4 + 8), g.getByte(l4 + 9),
            g.getByte(l4 + 10), g.getByte(l4 + 11)});
        g.release();
    }
}
