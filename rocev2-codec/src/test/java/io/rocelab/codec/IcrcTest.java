package io.rocelab.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.Udp;
import io.rocelab.codec.testkit.GoldenVectors;
import io.rocelab.codec.testkit.GoldenVectors.Vector;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which bytes the ICRC covers: any covered byte changed must fail the check; the fields routers
 * and switches may rewrite (TOS/ECN, TTL, IP checksum, UDP checksum, FECN/BECN) must not.
 */
class IcrcTest {
    private final Icrc icrc = new Icrc();

    static Stream<Vector> vectors() {
        return GoldenVectors.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void everyCoveredByteIsCovered(Vector v) {
        ByteBuf buf = Unpooled.wrappedBuffer(v.frame().clone());
        try {
            ParsedFrame f = new ParsedFrame();
            assertNull(f.parse(buf));
            for (int i = f.l3Offset(); i < f.icrcOffset(); i++) {
                if (isMasked(f, i)) {
                    continue;
                }
                for (int bit : new int[] {0x01, 0x80}) {
                    if (f.ipVersion() == 6 && i == f.l3Offset() && bit == 0x01) {
                        continue; // the low nibble of IPv6 byte 0 is traffic class: masked
                    }
                    byte old = buf.getByte(i);
                    buf.setByte(i, old ^ bit);
                    ParsedFrame g = new ParsedFrame();
                    // a flipped length or type may make the frame unparseable, which also rejects it
                    boolean rejected = g.parse(buf) != null || !g.isRoce() || !icrc.verify(g);
                    assertTrue(rejected, "flipping bit " + bit + " of byte " + i + " went unnoticed");
                    buf.setByte(i, old);
                }
            }
            assertNull(f.parse(buf));
            assertTrue(icrc.verify(f), "restored frame verifies again");
        } finally {
            buf.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void maskedFieldsMayChange(Vector v) {
        ByteBuf buf = Unpooled.wrappedBuffer(v.frame().clone());
        try {
            ParsedFrame f = new ParsedFrame();
            assertNull(f.parse(buf));
            int l3 = f.l3Offset();
            if (f.ipVersion() == 4) {
                Ipv4.setEcn(buf, l3, 3);
                Ipv4.setDscp(buf, l3, 46);
                Ipv4.decrementTtl(buf, l3);
                assertTrue(Ipv4.checksumOk(buf, l3), "incremental checksum update");
            } else {
                Ipv6.setTrafficClass(buf, l3, 0xBB);
                buf.setByte(l3 + 1, buf.getByte(l3 + 1) ^ 0x0F); // flow label
                buf.setByte(l3 + Ipv6.HOP_LIMIT, 3);
            }
            buf.setShort(f.udpOffset() + Udp.CHECKSUM, 0x1234);
            Bth.setFecn(buf, f.bthOffset(), 1);
            Bth.setBecn(buf, f.bthOffset(), 1);
            buf.setByte(f.bthOffset() + Bth.FECN_BECN, buf.getByte(f.bthOffset() + Bth.FECN_BECN) | 0x3F);
            assertNull(f.parse(buf));
            assertEquals(3, f.ecn(), "CE");
            assertEquals(46, f.dscp());
            assertTrue(icrc.verify(f), "masked fields are outside the ICRC");
        } finally {
            buf.release();
        }
    }

    /** The in-place path (sole owner) and the copying path (shared buffer) agree and leave the frame as it was. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void inPlaceAndCopyingPathsAgreeAndRestoreTheFrame(Vector v) {
        ByteBuf buf = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(v.frame());
        try {
            ParsedFrame f = new ParsedFrame();
            assertNull(f.parse(buf));
            int soleOwner = icrc.compute(f);
            assertArrayEquals(v.frame(), io.netty.buffer.ByteBufUtil.getBytes(buf), "frame restored");
            buf.retain();
            int shared = icrc.compute(f);
            buf.release();
            ByteBuf readOnly = buf.asReadOnly();
            ParsedFrame g = new ParsedFrame();
            assertNull(g.parse(readOnly));
            int fromReadOnly = icrc.compute(g);
            assertEquals(v.json().get("icrc_crc32").asLong(), Integer.toUnsignedLong(soleOwner));
            assertEquals(soleOwner, shared);
            assertEquals(soleOwner, fromReadOnly);
            assertArrayEquals(v.frame(), io.netty.buffer.ByteBufUtil.getBytes(buf), "frame unchanged");
        } finally {
            buf.release();
        }
    }

    /**
     * A frame that is a slice in the middle of a larger direct buffer (a received datagram's frame
     * in its read buffer) gets the same ICRC, from an unpooled buffer and a pooled one, and a frame
     * whose bytes end at the buffer's end still does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void aFrameSlicedFromALargerBufferHasTheSameIcrc(Vector v) {
        byte[] frame = v.frame();
        long expected = v.json().get("icrc_crc32").asLong();
        for (io.netty.buffer.ByteBufAllocator alloc : new io.netty.buffer.ByteBufAllocator[] {
            new io.netty.buffer.UnpooledByteBufAllocator(true, true), io.netty.buffer.PooledByteBufAllocator.DEFAULT}) {
            for (int before : new int[] {0, 300}) {
                ByteBuf big = alloc.directBuffer(before + frame.length + (before == 0 ? 0 : 500));
                big.writeZero(before).writeBytes(frame).writeZero(big.writableBytes());
                ByteBuf slice = big.retainedSlice(before, frame.length);
                try {
                    ParsedFrame f = new ParsedFrame();
                    assertNull(f.parse(slice));
                    assertEquals(expected, Integer.toUnsignedLong(icrc.compute(f)), alloc + ", " + before + " before");
                    assertArrayEquals(frame, io.netty.buffer.ByteBufUtil.getBytes(slice), "frame unchanged");
                } finally {
                    slice.release();
                    big.release();
                }
            }
        }
    }

    private static boolean isMasked(ParsedFrame f, int i) {
        int l3 = f.l3Offset();
        if (f.ipVersion() == 4) {
            int r = i - l3;
            if (r == Ipv4.TOS || r == Ipv4.TTL || r == Ipv4.CHECKSUM || r == Ipv4.CHECKSUM + 1) {
                return true;
            }
        } else {
            int r = i - l3;
            if (r == 1 || r == 2 || r == 3 || r == Ipv6.HOP_LIMIT) {
                return true;
            }
        }
        int u = i - f.udpOffset();
        if (u == Udp.CHECKSUM || u == Udp.CHECKSUM + 1) {
            return true;
        }
        return i == f.bthOffset() + Bth.FECN_BECN;
    }
}
