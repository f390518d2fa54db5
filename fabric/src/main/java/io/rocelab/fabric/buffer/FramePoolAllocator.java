package io.rocelab.fabric.buffer;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import io.netty.buffer.UnpooledUnsafeHeapByteBuf;
import org.jctools.queues.MpmcArrayQueue;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An allocator for frames: direct buffers of one slot size kept on a lock-free free list, so that a
 * frame costs a poll and an offer, whichever thread frees it.
 *
 * <p>Why: a NIC builds every frame it sends in a fresh buffer, and the frame is freed by the receiver,
 * often on another thread. Netty's general-purpose pool pays for that in its thread caches, its arena
 * and the {@code Recycler} of its buffer objects (together a third or more of a NIC thread's time in
 * the in-process benchmark). Here a freed frame (reference count zero) puts itself back on the list,
 * buffer object and memory together, in the spirit of DPDK's mempools of fixed-size mbufs.
 *
 * <p>Rules: requests up to {@link #slotBytes()} get a pooled slot (its {@code capacity()} is the slot
 * size, larger than asked); larger requests, and heap buffers, are plain unpooled buffers. A pooled
 * buffer that was grown beyond its slot is freed normally when released. The list holds at most
 * {@code maxPooled} free frames; more are freed. Netty's leak detector wraps these buffers as it does
 * any allocator's, so a frame that is never released is still reported. Thread-safe.
 */
public final class FramePoolAllocator extends AbstractByteBufAllocator {

    private final int slotBytes;
    private final MpmcArrayQueue<PooledFrame> free;
    private final AtomicLong created = new AtomicLong();

    /**
     * @param slotBytes the size of every pooled frame: the largest frame that should be pooled
     * @param maxPooled how many free frames the list keeps at most
     */
    public FramePoolAllocator(int slotBytes, int maxPooled) {
        super(true);
        if (slotBytes <= 0) {
            throw new IllegalArgumentException("slotBytes must be > 0: " + slotBytes);
        }
        if (maxPooled <= 0) {
            throw new IllegalArgumentException("maxPooled must be > 0: " + maxPooled);
        }
        this.slotBytes = slotBytes;
        this.free = new MpmcArrayQueue<>(Math.max(2, maxPooled));
    }

    /**
     * @return the capacity of every pooled frame
     */
    public int slotBytes() {
        return slotBytes;
    }

    /**
     * @return how many pooled frames were ever created (the rest of the allocations reused one)
     */
    public long framesCreated() {
        return created.get();
    }

    /**
     * @return how many free frames wait on the list
     */
    public int framesFree() {
        return free.size();
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        if (initialCapacity > slotBytes) {
            return new UnpooledUnsafeDirectByteBuf(this, initialCapacity, maxCapacity);
        }
        final int max = Math.max(maxCapacity, slotBytes);
        final PooledFrame frame = free.relaxedPoll();
        if (frame != null) {
            frame.reuse(max);
            return frame;
        }
        created.incrementAndGet();
        return new PooledFrame(this, slotBytes, max);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return new UnpooledUnsafeHeapByteBuf(this, initialCapacity, maxCapacity);
    }

    @Override
    public String toString() {
        return "FramePoolAllocator[slot " + slotBytes + " B, " + free.size() + " free, " + created.get() + " created]";
    }

    /** A slot: goes back on the free list, buffer object and memory, when its count reaches zero. */
    private static final class PooledFrame extends UnpooledUnsafeDirectByteBuf {
        private final FramePoolAllocator pool;

        PooledFrame(FramePoolAllocator pool, int slotBytes, int maxCapacity) {
            super(pool, slotBytes, maxCapacity);
            this.pool = pool;
        }

        void reuse(int maxCapacity) {
            maxCapacity(maxCapacity);
            resetRefCnt();
            clear();
            markReaderIndex();
            markWriterIndex();
        }

        @Override
        protected void deallocate() {
            if (capacity() == pool.slotBytes && pool.free.relaxedOffer(this)) {
                return; // back on the list; the memory stays allocated for the next frame
            }
            super.deallocate();
        }
    }
}
