package io.rocelab.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Grh;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.testkit.RoceV1GoldenFrames;
import io.rocelab.codec.testkit.RoceV1GoldenFrames.Frame;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RoCEv1 (IBA Annex A16) in the codec: the hand-built golden frames parse as EtherType 0x8915 / GRH /
 * BTH with their ICRC right, re-encode byte for byte, and the ICRC covers what A16 says it covers.
 */
class RoceV1CodecTest {
    static Stream<Frame> frames() {
        return RoceV1GoldenFrames.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void parsesTheGrhAndTransportWithAGoodIcrc(Frame g) {
        ByteBuf buf = Unpooled.wrappedBuffer(g.bytes());
        ParsedFrame f = new ParsedFrame();
        assertNull(f.parse(buf));
        assertEquals(FrameKind.ROCEV1, f.kind());
        assertTrue(f.isRoceV1());
        assertFalse(f.isRoce(), "isRoce is RoCEv2 only");
        assertEquals(EtherType.ROCE, f.etherType());
        assertEquals(g.grhOffset(), f.grhOffset());
        assertEquals(g.bthOffset(), f.bthOffset());
        assertEquals(-1, f.udpOffset());
        assertEquals(0, f.ipVersion(), "a GRH is not an IP header");
        assertEquals(-1, f.dscp());
        assertEquals(-1, f.ecn());
        assertEquals(g.opcode(), f.opcode().code());
        assertEquals(g.destQp(), f.destQp());
        assertEquals(g.psn(), f.psn());
        assertEquals(g.payloadLength(), f.payloadLength());
        assertEquals(g.pcp(), f.pcp());
        assertEquals(g.icrcOffset(), f.icrcOffset());
        assertEquals(0, f.trailerLength());
        assertEquals(Grh.NEXT_HEADER_IBA, Ipv6.nextHeader(buf, f.grhOffset()));
        assertTrue(new Icrc().verify(f), "ICRC of IBA Annex A16");
        // a copy in a buffer others hold (reference count 2) takes the masked-copy path: same answer
        buf.retain();
        try {
            assertEquals(f.icrc(), new Icrc().compute(f));
        } finally {
            buf.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void reencodesByteForByte(Frame g) {
        ByteBuf buf = Unpooled.wrappedBuffer(g.bytes());
        ParsedFrame f = new ParsedFrame();
        assertNull(f.parse(buf));
        RoceFrame r = RoceFrame.decode(f);
        assertTrue(r.isRoceV1());
        ByteBuf again = r.encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertArrayEquals(g.bytes(), ByteBufUtil.getBytes(again));
            ByteBuf recomputed = r.recomputeIcrc().encode(UnpooledByteBufAllocator.DEFAULT);
            assertArrayEquals(g.bytes(), ByteBufUtil.getBytes(recomputed), "the encoder's ICRC is A16's");
            recomputed.release();
        } finally {
            again.release();
        }
    }

    @Test
    void theBuilderMakesTheHandBuiltWriteFrame() {
        Frame g = RoceV1GoldenFrames.writeOnlyVlanLinkLocal();
        HexFormat hex = HexFormat.of();
        RoceFrame r = new RoceFrame().ethernet(0x020000000002L, 0x020000000001L)
                .vlan(RoceFrame.VlanTag.dot1q(3, 100))
                .roceV1(hex.parseHex("fe80000000000000000000fffe000001"), hex.parseHex("fe80000000000000000000fffe000002"))
                .trafficClass(0x68).flowLabel(0x12345).ttl(1)
                .opcode(Opcode.RC_RDMA_WRITE_ONLY).destQp(0x12).ackReq(true).psn(7)
                .reth(0x00007f0000001000L, 0x1234, 6).payload("rocev1".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        ByteBuf b = r.encode(UnpooledByteBufAllocator.DEFAULT);
        try {
            assertArrayEquals(g.bytes(), ByteBufUtil.getBytes(b));
        } finally {
            b.release();
        }
    }

    @Test
    void theIcrcMasksTheVariantFieldsAndCoversTheRest() {
        Frame g = RoceV1GoldenFrames.sendOnlyIpv4Mapped();
        Icrc icrc = new Icrc();
        ParsedFrame f = new ParsedFrame();
        int grh = g.grhOffset();
        int bth = g.bthOffset();
        // variant: TClass, FlowLabel, HopLmt, resv8a (FECN/BECN); a router or switch may change them
        int[] variant = {grh, grh + 1, grh + 2, grh + 3, grh + Grh.HOP_LIMIT, bth + Bth.FECN_BECN};
        for (int at : variant) {
            byte[] copy = g.bytes().clone();
            copy[at] ^= (at == grh ? 0x0F : 0xFF);
            assertNull(f.parse(Unpooled.wrappedBuffer(copy)));
            assertTrue(icrc.verify(f), "byte " + at + " is masked");
        }
        // invariant: every other byte from the GRH to the ICRC (IPVer, PayLen and NxtHdr change the parse)
        for (int at = grh; at < g.icrcOffset(); at++) {
            final int i = at;
            if (java.util.Arrays.stream(variant).anyMatch(v -> v == i) || at == grh || at == grh + 4
                    || at == grh + 5 || at == grh + 6) {
                continue;
            }
            byte[] copy = g.bytes().clone();
            copy[at] ^= 0x01;
            if (f.parse(Unpooled.wrappedBuffer(copy)) != null) {
                continue; // e.g. TVer or PadCnt now invalid: dropped before the ICRC anyway
            }
            assertFalse(icrc.verify(f), "byte " + at + " is covered");
        }
        // the Ethernet header is not covered (a bridge may add or change the VLAN tag)
        byte[] copy = g.bytes().clone();
        copy[0] ^= 0x01;
        assertNull(f.parse(Unpooled.wrappedBuffer(copy)));
        assertTrue(icrc.verify(f));
    }

    @Test
    void theInPlaceComputationOfAFrameBeingBuiltIsA16s() {
        Frame g = RoceV1GoldenFrames.ackGlobalIpv6();
        ByteBuf b = Unpooled.directBuffer(g.bytes().length).writeBytes(g.bytes());
        try {
            int carried = b.getIntLE(g.icrcOffset());
            assertEquals(carried, new Icrc().computeRoceV1InPlace(b, g.grhOffset(), g.bthOffset(), g.icrcOffset()));
            assertArrayEquals(g.bytes(), ByteBufUtil.getBytes(b), "masked bytes restored");
        } finally {
            b.release();
        }
    }

    @Test
    void aBadGrhIsMalformed() {
        ParsedFrame f = new ParsedFrame();
        byte[] nextHeader = RoceV1GoldenFrames.sendOnlyIpv4Mapped().bytes().clone();
        nextHeader[14 + Grh.NEXT_HEADER] = 17; // UDP is not an IBA transport header
        assertEquals(DecodeError.BAD_GRH, f.parse(Unpooled.wrappedBuffer(nextHeader)));
        byte[] version = RoceV1GoldenFrames.sendOnlyIpv4Mapped().bytes().clone();
        version[14] = 0x40;
        assertEquals(DecodeError.BAD_GRH, f.parse(Unpooled.wrappedBuffer(version)));
        byte[] longer = RoceV1GoldenFrames.sendOnlyIpv4Mapped().bytes().clone();
        longer[14 + Grh.PAYLOAD_LENGTH + 1] = 100;
        assertEquals(DecodeError.TRUNCATED_GRH, f.parse(Unpooled.wrappedBuffer(longer)));
        byte[] cut = java.util.Arrays.copyOf(RoceV1GoldenFrames.sendOnlyIpv4Mapped().bytes(), 14 + 30);
        assertEquals(DecodeError.TRUNCATED_GRH, f.parse(Unpooled.wrappedBuffer(cut)));
    }

    /**
     * Hostile input: every golden frame cut at every length and with random bytes flipped parses
     * without throwing; a frame that parses as RoCEv1 has its ICRC computed without throwing, and a
     * mutation of a covered byte is caught by it.
     */
    @Test
    void cutAndMutatedFramesNeverThrow() {
        java.util.Random random = new java.util.Random(32);
        ParsedFrame f = new ParsedFrame();
        Icrc icrc = new Icrc();
        for (Frame g : RoceV1GoldenFrames.all()) {
            for (int length = 0; length <= g.bytes().length; length++) {
                DecodeError e = f.parse(Unpooled.wrappedBuffer(java.util.Arrays.copyOf(g.bytes(), length)));
                if (e == null && f.isRoceV1()) {
                    icrc.compute(f);
                }
            }
            for (int i = 0; i < 2000; i++) {
                byte[] copy = g.bytes().clone();
                int at = g.grhOffset() + random.nextInt(copy.length - g.grhOffset());
                copy[at] ^= (byte) (1 + random.nextInt(255));
                if (f.parse(Unpooled.wrappedBuffer(copy)) == null && f.isRoceV1()) {
                    boolean masked = at == g.grhOffset() + 1 || at == g.grhOffset() + 2 || at == g.grhOffset() + 3
                            || at == g.grhOffset() + Grh.HOP_LIMIT || at == g.bthOffset() + Bth.FECN_BECN
                            || at == g.grhOffset() && (copy[at] & 0xF0) == (g.bytes()[at] & 0xF0);
                    assertEquals(masked, icrc.verify(f), "byte " + at + " of " + g);
                }
            }
        }
    }

    @Test
    void summaryNamesTheEncapsulationAndTheGids() {
        ParsedFrame f = new ParsedFrame();
        assertNull(f.parse(Unpooled.wrappedBuffer(RoceV1GoldenFrames.writeOnlyVlanLinkLocal().bytes())));
        String line = new FrameSummary().describe(f, new StringBuilder()).toString();
        assertTrue(line.startsWith("vlan 100 pcp 3, RoCEv1 fe80::ff:fe00:1 > fe80::ff:fe00:2 RC_RDMA_WRITE_ONLY"
                + " QP 0x000012 PSN 7 A RETH"), line);
        assertTrue(line.endsWith("payload 6 tclass 104"), line);
        assertNull(f.parse(Unpooled.wrappedBuffer(RoceV1GoldenFrames.sendOnlyIpv4Mapped().bytes())));
        assertEquals("RoCEv1 ::ffff:10.0.0.1 > ::ffff:10.0.0.2 RC_SEND_ONLY QP 0x000011 PSN 1 A payload 8",
                new FrameSummary().describe(f, new StringBuilder()).toString(), "IPv4-mapped GIDs as Wireshark shows them");
    }
}
