package io.rocelab.fabric.endpoint;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.fabric.buffer.FramePoolAllocator;

/**
 * Where a port's socket reads go: pooled slots handed out {@link #HEADROOM} bytes in, so the first
 * datagram of a read has room before it for its frame's headers too ({@link InPlaceFrames}; every
 * later one has the consumed tail of the one before). Without it the first datagram of each GRO
 * read, one in eight in {@code ib_write_bw}, was copied. A buffer handed out is a slice of its slot:
 * releasing it releases the slot, which goes back to the pool.
 */
final class ReadBuffers extends AbstractByteBufAllocator {
    /** Room before each read: a frame's Ethernet/IPv4/UDP headers, rounded up to a cache line. */
    static final int HEADROOM = 64;

    private final int bufferBytes;
    private final FramePoolAllocator slots;

    /**
     * @param bufferBytes the size of one read buffer
     * @param pooled      how many free slots the pool keeps
     */
    ReadBuffers(int bufferBytes, int pooled) {
        super(true);
        this.bufferBytes = bufferBytes;
        this.slots = new FramePoolAllocator(HEADROOM + bufferBytes, pooled);
    }

    /** How many slots were ever created (the rest of the reads reused one). */
    long created() {
        return slots.framesCreated();
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        if (initialCapacity > bufferBytes) {
            return UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity);
        }
        return slots.directBuffer(HEADROOM + bufferBytes).slice(HEADROOM, bufferBytes).clear();
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
    }
}
