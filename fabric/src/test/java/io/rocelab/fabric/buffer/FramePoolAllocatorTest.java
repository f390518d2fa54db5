package io.rocelab.fabric.buffer;

import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frame pool reuses a freed frame (object and memory) whichever thread freed it, hands it out
 * clean, and keeps out what does not fit a slot. The tests run under Netty's paranoid leak detector,
 * which wraps these buffers like any other: {@code unwrap()} reaches the pooled frame.
 */
class FramePoolAllocatorTest {

    private static ByteBuf frame(ByteBuf b) {
        return b.unwrap() != null ? b.unwrap() : b;
    }

    @Test
    void aReleasedFrameIsHandedOutAgainWithCleanIndicesAndOneReference() {
        final FramePoolAllocator alloc = new FramePoolAllocator(256, 8);
        final ByteBuf first = alloc.directBuffer(100);
        first.writeLong(42).readByte();
        final ByteBuf slot = frame(first);
        assertEquals(256, first.capacity(), "a pooled frame has the slot's capacity");
        assertTrue(first.release());
        assertEquals(1, alloc.framesFree());

        final ByteBuf second = alloc.directBuffer(200);
        assertSame(slot, frame(second), "the same frame, reused");
        assertEquals(0, second.readerIndex());
        assertEquals(0, second.writerIndex());
        assertEquals(1, second.refCnt());
        assertEquals(0, alloc.framesFree());
        second.release();
        for (int i = 0; i < 1000; i++) {
            alloc.directBuffer(64).release();
        }
        assertEquals(1, alloc.framesCreated(), "one frame served 1002 allocations");
    }

    @Test
    void aFrameFreedOnAnotherThreadComesBackToTheList() throws Exception {
        final FramePoolAllocator alloc = new FramePoolAllocator(4352, 64);
        final List<ByteBuf> sent = new ArrayList<>();
        final List<ByteBuf> slots = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            final ByteBuf b = alloc.directBuffer(4170);
            b.writerIndex(4170);
            sent.add(b);
            slots.add(frame(b));
        }
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread receiver = new Thread(() -> {
            try {
                sent.forEach(ByteBuf::release);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        receiver.start();
        receiver.join();
        assertEquals(null, failure.get());
        assertEquals(32, alloc.framesFree());
        for (int i = 0; i < 32; i++) {
            final ByteBuf again = alloc.directBuffer(4170);
            assertTrue(slots.contains(frame(again)), "reused a frame freed by the other thread");
            again.release();
        }
        assertEquals(32, alloc.framesCreated());
    }

    @Test
    void requestsLargerThanASlotAndFramesGrownBeyondOneAreNotPooled() {
        final FramePoolAllocator alloc = new FramePoolAllocator(128, 8);
        final ByteBuf big = alloc.directBuffer(1000);
        assertEquals(1000, big.capacity());
        big.release();
        assertEquals(0, alloc.framesFree(), "an oversized buffer is freed, not pooled");

        final ByteBuf grown = alloc.directBuffer(64);
        grown.writeZero(500); // past the slot: the buffer grows and leaves the pool
        assertTrue(grown.capacity() >= 500);
        grown.release();
        assertEquals(0, alloc.framesFree(), "a grown frame is freed, not pooled");

        final ByteBuf heap = alloc.heapBuffer(64);
        heap.release();
        assertEquals(0, alloc.framesFree());
    }

    @Test
    void theListKeepsAtMostMaxPooledFreeFrames() {
        final FramePoolAllocator alloc = new FramePoolAllocator(64, 4);
        final List<ByteBuf> held = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            held.add(alloc.directBuffer(64));
        }
        held.forEach(ByteBuf::release);
        assertEquals(4, alloc.framesFree());
        assertEquals(10, alloc.framesCreated());
    }

    @Test
    void theLastReleaseWithoutAnAtomicUpdateStillRefusesAUseOrASecondReleaseAfterIt() {
        final FramePoolAllocator alloc = new FramePoolAllocator(64, 4);
        final ByteBuf slot = frame(alloc.directBuffer(32));
        slot.retain();
        assertTrue(!slot.release() && slot.refCnt() == 1, "held twice: the first release only counts down");
        assertEquals(0, alloc.framesFree());
        assertTrue(slot.release(), "the last release frees it");
        assertEquals(0, slot.refCnt());
        assertEquals(1, alloc.framesFree(), "back on the list");
        assertThrows(IllegalReferenceCountException.class, () -> slot.getByte(0), "a freed frame is not readable");
        assertThrows(IllegalReferenceCountException.class, slot::release, "a second release fails as Netty's does");
        assertEquals(1, alloc.framesFree(), "and does not put the frame on the list twice");
    }

    @Test
    void aRetainedDuplicateKeepsTheFrameOutOfTheListUntilItIsReleasedToo() {
        final FramePoolAllocator alloc = new FramePoolAllocator(64, 4);
        final ByteBuf b = alloc.directBuffer(32);
        final ByteBuf copyHolder = b.retainedDuplicate();
        b.release();
        assertEquals(0, alloc.framesFree(), "still referenced by the duplicate");
        copyHolder.release();
        assertEquals(1, alloc.framesFree());
    }

    @Test
    void framesFreedOnTheOwnerThreadComeBackLastInFirstOut() {
        final FramePoolAllocator alloc = new FramePoolAllocator(256, 8);
        final ByteBuf a = alloc.directBuffer(64);
        final ByteBuf b = alloc.directBuffer(64);
        final ByteBuf c = alloc.directBuffer(64);
        final ByteBuf slotB = frame(b);
        final ByteBuf slotC = frame(c);
        a.release();
        b.release();
        c.release();
        assertEquals(3, alloc.framesFree());
        final ByteBuf first = alloc.directBuffer(64);
        final ByteBuf second = alloc.directBuffer(64);
        assertSame(slotC, frame(first), "the frame freed last is handed out first (still in the cache)");
        assertSame(slotB, frame(second));
        assertEquals(1, alloc.framesFree());
        first.release();
        second.release();
        assertEquals(3, alloc.framesCreated());
    }

    @Test
    void theLimitCoversTheOwnersStackAndTheOtherThreadsListTogether() throws Exception {
        final FramePoolAllocator alloc = new FramePoolAllocator(64, 4);
        final List<ByteBuf> mine = new ArrayList<>();
        final List<ByteBuf> theirs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            mine.add(alloc.directBuffer(64)); // this thread allocates first: it owns the stack
        }
        for (int i = 0; i < 4; i++) {
            theirs.add(alloc.directBuffer(64));
        }
        mine.forEach(ByteBuf::release);
        assertEquals(2, alloc.framesFree());
        final Thread other = new Thread(() -> theirs.forEach(ByteBuf::release));
        other.start();
        other.join();
        assertEquals(4, alloc.framesFree(), "two on the owner's stack, two on the list; the other two freed");
        final List<ByteBuf> again = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            final ByteBuf b = alloc.directBuffer(64);
            assertEquals(1, b.refCnt());
            again.add(b);
        }
        assertEquals(0, alloc.framesFree());
        assertEquals(6, alloc.framesCreated(), "the four kept were reused");
        again.forEach(ByteBuf::release);
    }
}
