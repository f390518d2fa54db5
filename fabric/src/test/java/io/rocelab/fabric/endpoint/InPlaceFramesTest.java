package io.rocelab.fabric.endpoint;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class InPlaceFramesTest {
    private static final int H = DatagramFrames.HEADERS;
    /** The port's read buffers come from such a pool (its buffers carry no leak-detection wrapper). */
    private final FramePoolAllocator pool = new FramePoolAllocator(65_536, 4);

    /** A read buffer holding datagrams of these lengths back to back, cut as Netty cuts a GRO read. */
    private static List<ByteBuf> read(ByteBuf buffer, int... lengths) {
        buffer.clear();
        int seed = 0;
        for (int length : lengths) {
            for (int i = 0; i < length; i++) {
                buffer.writeByte(seed++ * 7);
            }
        }
        List<ByteBuf> datagrams = new ArrayList<>();
        for (int length : lengths) {
            datagrams.add(buffer.readRetainedSlice(length));
        }
        buffer.release(); // Netty lets go of the buffer once it is cut; the slices hold it
        return datagrams;
    }

    private static byte[] bytes(ByteBuf b) {
        return ByteBufUtil.getBytes(b, b.readerIndex(), b.readableBytes());
    }

    @Test
    void everyDatagramButTheFirstBecomesAFrameOverItsOwnBytes() {
        InPlaceFrames frames = new InPlaceFrames();
        ByteBuf buffer = pool.directBuffer(65_536);
        List<ByteBuf> d = read(buffer, 4112, 4112, 700);
        assertNull(frames.frame(d.get(0)), "nothing before the first datagram");
        frames.returned();
        d.get(0).release();
        for (int i = 1; i < 3; i++) {
            ByteBuf payload = d.get(i);
            byte[] expected = bytes(payload);
            ByteBuf frame = frames.frame(payload);
            assertNotNull(frame, "datagram " + i);
            assertEquals(H + payload.readableBytes(), frame.readableBytes());
            assertEquals(payload.memoryAddress() + payload.readerIndex(), frame.memoryAddress() + H,
                "the payload is the datagram's own bytes, not a copy");
            DatagramFrames.writeHeaders(frame, 0x0252_5400_0002L, 0x0252_5400_0001L, 0x0A000001, 0xC000, 0x0A000002,
                4791, payload.readableBytes());
            assertEquals(0x45, frame.getUnsignedByte(14), "IPv4 header in the bytes before the datagram");
            assertEquals(8 + payload.readableBytes(), frame.getUnsignedShort(H - 4), "UDP length");
            assertArrayEquals(expected, ByteBufUtil.getBytes(frame, H, payload.readableBytes()));
            frame.release(); // a NIC releases the frame before it returns
            frames.returned();
            payload.release();
        }
        assertEquals(0, buffer.refCnt(), "every frame and slice released: the read buffer is free");
    }

    @Test
    void aFrameTheReceiverKeepsIsNotOverwrittenTheNextDatagramIsCopied() {
        InPlaceFrames frames = new InPlaceFrames();
        ByteBuf buffer = pool.directBuffer(65_536);
        List<ByteBuf> d = read(buffer, 1000, 1000, 1000, 1000);
        assertNull(frames.frame(d.get(0)));
        frames.returned();
        ByteBuf kept = frames.frame(d.get(1));
        assertNotNull(kept);
        byte[] keptBytes = bytes(kept);
        frames.returned(); // the receiver returned without releasing it
        assertNull(frames.frame(d.get(2)), "the bytes before datagram 2 are the kept frame's");
        frames.returned();
        ByteBuf third = frames.frame(d.get(3));
        assertNotNull(third, "datagram 2 was copied, so its bytes are free again");
        DatagramFrames.writeHeaders(third, 1, 2, 3, 4, 5, 6, 1000);
        third.release();
        frames.returned();
        assertArrayEquals(keptBytes, bytes(kept), "the kept frame is intact");
        kept.release();
        d.forEach(ByteBuf::release);
        assertEquals(0, buffer.refCnt());
    }

    @Test
    void aReceiverThatThrowsCountsAsKeepingItsFrame() {
        InPlaceFrames frames = new InPlaceFrames();
        ByteBuf buffer = pool.directBuffer(65_536);
        List<ByteBuf> d = read(buffer, 500, 500, 500);
        frames.frame(d.get(0));
        ByteBuf kept = frames.frame(d.get(1));
        assertNotNull(kept);
        // no returned(): the next datagram must not take the bytes of a frame nobody released
        assertNull(frames.frame(d.get(2)));
        kept.release();
        d.forEach(ByteBuf::release);
    }

    @Test
    void aReusedReadBufferStartsAfresh() {
        InPlaceFrames frames = new InPlaceFrames();
        ByteBuf first = pool.directBuffer(65_536);
        List<ByteBuf> d = read(first, 300, 300);
        frames.frame(d.get(0));
        frames.returned();
        ByteBuf kept = frames.frame(d.get(1));
        frames.returned();
        kept.release(); // released later, after the next datagram was looked at
        d.forEach(ByteBuf::release);
        ByteBuf second = pool.directBuffer(65_536);
        assertEquals(first, second, "the pool hands out the same buffer for the next read");
        List<ByteBuf> e = read(second, 300, 300);
        assertNull(frames.frame(e.get(0)));
        frames.returned();
        ByteBuf f = frames.frame(e.get(1));
        assertNotNull(f, "what was kept from the last read was released before the buffer came back");
        f.release();
        frames.returned();
        e.forEach(ByteBuf::release);
    }

    @Test
    void buffersWithoutAnAddressOrNotSlicesAreCopied() {
        InPlaceFrames frames = new InPlaceFrames();
        ByteBuf heap = Unpooled.buffer(10_000);
        List<ByteBuf> d = read(heap, 200, 200);
        assertNull(frames.frame(d.get(1)), "a heap buffer");
        d.forEach(ByteBuf::release);
        ByteBuf whole = pool.directBuffer(1000).writerIndex(600).readerIndex(100);
        assertNull(frames.frame(whole), "a buffer of its own (NIO reads), not a slice of a read");
        whole.release();
        ByteBuf tracked = UnpooledByteBufAllocator.DEFAULT.directBuffer(1000).writerIndex(600).readerIndex(100);
        assertNull(frames.frame(tracked), "a buffer behind a leak-detection wrapper");
        tracked.release();
    }
}
