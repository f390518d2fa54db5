package io.rocelab.fabric.buffer;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import io.netty.buffer.UnpooledUnsafeHeapByteBuf;
import io.netty.util.internal.PlatformDependent;
import io.rocelab.fabric.queue.MessageQueues;
import org.jctools.queues.MessagePassingQueue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An allocator for frames: direct buffers of one slot size kept on free lists, so that a frame costs
 * a pop and a push on its owner's thread, and a poll and an offer through a lock-free list when
 * another thread frees it.
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
 *
 * <p>The owner: the first thread that allocates a pooled frame (a NIC's or switch's loop) keeps its
 * free frames on a plain stack that only it touches, last freed first out, so the frame it builds
 * next is the one still in its cache. Frames freed on any other thread go to the lock-free list, which
 * the owner takes from when its stack is empty, and which other threads allocate from.
 *
 * <p>The last release: a frame is built, sent and freed by one holder at a time, so its last
 * {@code release()} (the count at one) sets the count to zero with an ordered store instead of
 * Netty's compare-and-swap. When the count is one, the caller holds the only reference, and by
 * Netty's contract nobody else may retain or release the frame, so no update can race with this one.
 * What it saves is not the instruction but the wait: on x86 a locked instruction waits until every
 * store before it has left the store buffer, and the receiver releases a frame right after copying
 * its 4 KB payload into memory (measured: 63 to 66 Gb/s in {@code ib_write_bw --in-process},
 * docs/performance.md). A second release still fails as Netty's does: the count is then zero, and
 * Netty's own path throws.
 *
 * <p>Buffers are Netty's {@code Unsafe} kind where Netty may use {@code sun.misc.Unsafe}, and its
 * plain {@code ByteBuffer} kind where it may not (Java 25 and later, or {@code -Dio.netty.noUnsafe=true}):
 * the first cannot even be created there.
 */
public final class FramePoolAllocator extends AbstractByteBufAllocator {
    /** Whether Netty may use {@code sun.misc.Unsafe} in this JVM. */
    private static final boolean UNSAFE = PlatformDependent.hasUnsafe();

    private final int slotBytes;
    private final int maxPooled;
    /** Frames freed on threads other than the owner. */
    private final MessagePassingQueue<AbstractByteBuf> free;
    private final AtomicLong created = new AtomicLong();
    /** The thread that allocated the first pooled frame; it alone touches {@link #stack}. */
    private final AtomicReference<Thread> owner = new AtomicReference<>();
    /** The owner's free frames, last freed on top. */
    private final AbstractByteBuf[] stack;
    /** Frames on {@link #stack}; written by the owner only (other threads read it for sizes, racily). */
    private int stackSize;

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
        this.maxPooled = maxPooled;
        this.free = MessageQueues.mpmcBounded(Math.max(2, maxPooled));
        this.stack = new AbstractByteBuf[maxPooled];
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
     * @return how many free frames wait on the lists (exact on the owner thread, approximate elsewhere)
     */
    public int framesFree() {
        return free.size() + stackSize;
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        if (initialCapacity > slotBytes) {
            return UNSAFE ? new UnpooledUnsafeDirectByteBuf(this, initialCapacity, maxCapacity)
                : new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
        }
        final int max = Math.max(maxCapacity, slotBytes);
        AbstractByteBuf frame = null;
        if (isOwner(Thread.currentThread())) {
            final int n = stackSize;
            if (n > 0) {
                frame = stack[n - 1];
                stack[n - 1] = null;
                stackSize = n - 1;
            }
        }
        if (frame == null) {
            frame = free.relaxedPoll();
        }
        if (frame != null) {
            // casts to the final classes: an exact class check, where a check against an interface
            // goes through the class's one-entry secondary-supers cache, which Netty's own checks
            // (ReferenceCounted, ByteBufConvertible, ...) keep overwriting (JDK-8180450, Java < 23)
            return UNSAFE ? ((UnsafeSlot) frame).reuse(max) : ((NioSlot) frame).reuse(max);
        }
        created.incrementAndGet();
        return UNSAFE ? new UnsafeSlot(this, slotBytes, max) : new NioSlot(this, slotBytes, max);
    }

    /** Whether {@code t} owns the stack; the first thread that asks becomes the owner. */
    private boolean isOwner(Thread t) {
        final Thread o = owner.get();
        return o == t || o == null && owner.compareAndSet(null, t);
    }

    /**
     * Takes a freed slot back, buffer object and memory, for the next frame; false if it was grown
     * beyond its slot or the lists are full, and it must really be freed.
     */
    private boolean takeBack(AbstractByteBuf frame) {
        if (frame.capacity() != slotBytes) {
            return false;
        }
        if (owner.get() == Thread.currentThread()) {
            final int n = stackSize;
            if (n + free.size() < maxPooled) {
                stack[n] = frame;
                stackSize = n + 1;
                return true;
            }
            return false;
        }
        return free.size() + stackSize < maxPooled && free.relaxedOffer(frame);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return UNSAFE ? new UnpooledUnsafeHeapByteBuf(this, initialCapacity, maxCapacity)
            : new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
    }

    @Override
    public String toString() {
        return "FramePoolAllocator[slot " + slotBytes + " B, " + framesFree() + " free, " + created.get() + " created]";
    }

    /** A pooled frame whose memory Netty reads and writes through {@code sun.misc.Unsafe}: goes back on
     *  the free list, buffer object and memory, when its count reaches zero, and is made new again
     *  when it is handed out. */
    private static final class UnsafeSlot extends UnpooledUnsafeDirectByteBuf {
        UnsafeSlot(FramePoolAllocator pool, int slotBytes, int maxCapacity) {
            super(pool, slotBytes, maxCapacity);
        }

        /** Resets the reference count, indexes and marks; returns the frame. */
        ByteBuf reuse(int maxCapacity) {
            maxCapacity(maxCapacity);
            resetRefCnt();
            clear().markReaderIndex().markWriterIndex();
            return this;
        }

        /** See {@link FramePoolAllocator}: the last holder's release without an atomic update. */
        @Override
        public boolean release() {
            if (refCnt() == 1) {
                setRefCnt(0);
                deallocate();
                return true;
            }
            return super.release();
        }

        @Override
        protected void deallocate() {
            if (!((FramePoolAllocator) alloc()).takeBack(this)) {
                super.deallocate();
            }
        }
    }

    /** The same, for Netty's {@code ByteBuffer} kind. */
    private static final class NioSlot extends UnpooledDirectByteBuf {
        NioSlot(FramePoolAllocator pool, int slotBytes, int maxCapacity) {
            super(pool, slotBytes, maxCapacity);
        }

        /** Resets the reference count, indexes and marks; returns the frame. */
        ByteBuf reuse(int maxCapacity) {
            maxCapacity(maxCapacity);
            resetRefCnt();
            clear().markReaderIndex().markWriterIndex();
            return this;
        }

        /** See {@link FramePoolAllocator}: the last holder's release without an atomic update. */
        @Override
        public boolean release() {
            if (refCnt() == 1) {
                setRefCnt(0);
                deallocate();
                return true;
            }
            return super.release();
        }

        @Override
        protected void deallocate() {
            if (!((FramePoolAllocator) alloc()).takeBack(this)) {
                super.deallocate();
            }
        }
    }
}
