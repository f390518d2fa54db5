package io.rocelab.fabric.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Makes test frames that carry an id, and remembers every buffer it made so that a test can assert
 * all of them were released.
 *
 * <p>Uses an unpooled allocator: a released unpooled buffer keeps reporting {@code refCnt() == 0}
 * (a pooled one may be recycled), and its direct buffers go through Netty's leak detector.
 */
public final class TestFrames {

    /** Offset of the 4-byte id: right after the Ethernet header. */
    public static final int ID_OFFSET = 14;
    /** Smallest frame that can carry an id. */
    public static final int MIN_LENGTH = ID_OFFSET + 4;

    private final ByteBufAllocator allocator;
    private final boolean direct;
    /** Appended from several threads (a sender's and an echoing receiver's), so a concurrent queue. */
    private final Queue<ByteBuf> created = new ConcurrentLinkedQueue<>();

    private TestFrames(boolean direct) {
        this.allocator = new UnpooledByteBufAllocator(direct);
        this.direct = direct;
    }

    /** Direct, leak-tracked buffers: for functional tests. */
    public static TestFrames direct() {
        return new TestFrames(true);
    }

    /** Heap buffers: for statistical tests with 10^5 frames, where leak tracing would be slow. */
    public static TestFrames heap() {
        return new TestFrames(false);
    }

    public ByteBufAllocator allocator() {
        return allocator;
    }

    /**
     * A frame of {@code length} bytes: broadcast destination, a fixed source, EtherType 0x88B5
     * (local experimental), the id, then a pattern derived from the id.
     */
    public ByteBuf frame(int id, int length) {
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("length must be >= " + MIN_LENGTH + ": " + length);
        }
        final ByteBuf frame = direct ? allocator.directBuffer(length, length) : allocator.heapBuffer(length, length);
        created.add(frame);
        frame.writeInt(0xFFFFFFFF).writeShort(0xFFFF);
        frame.writeInt(0x02000000).writeShort(0x0001);
        frame.writeShort(0x88B5);
        frame.writeInt(id);
        for (int i = MIN_LENGTH; i < length; i++) {
            frame.writeByte(id * 31 + i);
        }
        return frame;
    }

    /** The expected bytes of {@link #frame(int, int)}. */
    public static byte[] expectedBytes(int id, int length) {
        final ByteBuf frame = new UnpooledByteBufAllocator(false).heapBuffer(length, length);
        try {
            frame.writeInt(0xFFFFFFFF).writeShort(0xFFFF);
            frame.writeInt(0x02000000).writeShort(0x0001);
            frame.writeShort(0x88B5);
            frame.writeInt(id);
            for (int i = MIN_LENGTH; i < length; i++) {
                frame.writeByte(id * 31 + i);
            }
            final byte[] bytes = new byte[length];
            frame.getBytes(0, bytes);
            return bytes;
        } finally {
            frame.release();
        }
    }

    /** Reads the id of a frame made by {@link #frame(int, int)}. */
    public static int id(ByteBuf frame) {
        return frame.getInt(frame.readerIndex() + ID_OFFSET);
    }

    /** Remembers a buffer this helper did not make (e.g. a copy made by a link) for the final check. */
    public void track(ByteBuf buffer) {
        created.add(buffer);
    }

    public int createdCount() {
        return created.size();
    }

    /** Number of tracked buffers that were not released. */
    public long unreleased() {
        return created.stream().filter(b -> b.refCnt() != 0).count();
    }
}
