package io.rocelab.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.rocelab.codec.netty.RoceDatagramDecoder;
import io.rocelab.codec.netty.RoceFrameDecoder;
import io.rocelab.codec.netty.RocePacket;
import io.rocelab.codec.testkit.GoldenVectors;
import java.net.InetSocketAddress;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Hostile input never escapes as an exception and never leaks: random bytes, every truncation and
 * random bit flips of valid frames, through the parser, the value decoder and real Netty
 * pipelines. Leaks fail the class through the project's leak check; buffers here come from the
 * pooled allocator so the leak detector tracks them.
 */
class FuzzPropertiesTest {
    private static final List<GoldenVectors.Vector> VECTORS = GoldenVectors.all();
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 4791);

    @Property(tries = 1000)
    void randomBytesNeverThrow(@ForAll @Size(max = 300) byte[] bytes) {
        exercise(bytes);
    }

    @Property(tries = 1000)
    void randomBytesBehindARoceHeaderNeverThrow(@ForAll("roceHeaderPrefixed") byte[] bytes) {
        exercise(bytes);
    }

    @Property(generation = GenerationMode.EXHAUSTIVE)
    void everyTruncationOfEveryVectorIsDroppedCleanly(@ForAll("vectorIndex") int index) {
        byte[] frame = VECTORS.get(index).frame();
        int eth = VECTORS.get(index).json().get("eth_padding_len").asInt();
        for (int len = 0; len < frame.length - eth; len++) {
            byte[] cut = java.util.Arrays.copyOf(frame, len);
            Outcome o = exercise(cut);
            assertFalse(o.accepted, "a frame cut to " + len + " bytes must not be accepted");
        }
    }

    @Property(tries = 2000)
    void bitFlipsAreEitherHarmlessOrDropped(@ForAll("vectorIndex") int index, @ForAll @IntRange(max = 9000) int at,
                                            @ForAll @IntRange(min = 0, max = 7) int bit) {
        byte[] frame = VECTORS.get(index).frame().clone();
        int pos = at % frame.length;
        frame[pos] ^= (byte) (1 << bit);
        exercise(frame);
    }

    @Provide
    Arbitrary<Integer> vectorIndex() {
        return Arbitraries.integers().between(0, VECTORS.size() - 1);
    }

    @Provide
    Arbitrary<byte[]> roceHeaderPrefixed() {
        // a valid Ethernet/IPv4/UDP 4791 prefix from a vector, then random bytes
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(200).map(tail -> {
            byte[] head = java.util.Arrays.copyOf(VECTORS.get(0).frame(), 42);
            byte[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
            System.arraycopy(tail, 0, all, head.length, tail.length);
            return all;
        });
    }

    private record Outcome(boolean accepted) {
    }

    /** Runs the bytes through every decoding path; returns whether the frame decoder accepted them. */
    private static Outcome exercise(byte[] bytes) {
        ParsedFrame f = new ParsedFrame();
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.buffer(Math.max(1, bytes.length)).writeBytes(bytes);
        try {
            DecodeError e = f.parse(buf);
            if (e == null && f.isRoce()) {
                new Icrc().verify(f);
                RoceFrame r = RoceFrame.decode(f);
                ByteBuf again = r.encode(PooledByteBufAllocator.DEFAULT);
                again.release();
            }
            f.parseTransport(buf);
        } finally {
            buf.release();
        }
        RoceFrameDecoder decoder = new RoceFrameDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(PooledByteBufAllocator.DEFAULT.buffer(Math.max(1, bytes.length)).writeBytes(bytes));
        boolean accepted = false;
        Object out;
        while ((out = ch.readInbound()) != null) {
            accepted |= out instanceof RocePacket;
            io.netty.util.ReferenceCountUtil.release(out);
        }
        // a frame is accepted (a packet), dropped (counted by reason) or not RoCE (passed on): never two
        assertEquals(accepted ? 1 : 0, decoder.counters().accepted(), "accepted frames are counted");
        assertTrue(decoder.counters().accepted() + decoder.counters().totalDropped() <= 1, "counted once");
        assertFalse(ch.finish());
        RoceDatagramDecoder datagrams = new RoceDatagramDecoder();
        EmbeddedChannel udp = new EmbeddedChannel(datagrams);
        udp.writeInbound(new DatagramPacket(
                PooledByteBufAllocator.DEFAULT.buffer(Math.max(1, bytes.length)).writeBytes(bytes), PEER, PEER));
        while ((out = udp.readInbound()) != null) {
            io.netty.util.ReferenceCountUtil.release(out);
        }
        assertTrue(datagrams.counters().accepted() + datagrams.counters().totalDropped() == 1,
                "each datagram is accepted or counted as dropped");
        assertFalse(udp.finish());
        return new Outcome(accepted);
    }
}
