package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * An allocator that remembers every buffer it hands out, so a test can assert that all of them
 * were released: paranoid leak detection only logs, and only after a garbage collection.
 */
final class TrackingAllocator extends AbstractByteBufAllocator {

    private static final ByteBufAllocator DELEGATE = new UnpooledByteBufAllocator(false);

    private final List<ByteBuf> allocated = new ArrayList<>();

    TrackingAllocator() {
        super(false);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        ByteBuf buf = DELEGATE.heapBuffer(initialCapacity, maxCapacity);
        allocated.add(buf);
        return buf;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        ByteBuf buf = DELEGATE.directBuffer(initialCapacity, maxCapacity);
        allocated.add(buf);
        return buf;
    }

    int allocatedCount() {
        return allocated.size();
    }

    void assertAllReleased(String context) {
        long live = allocated.stream().filter(b -> b.refCnt() > 0).count();
        if (live > 0) {
            fail(context + ": " + live + " of " + allocated.size() + " buffers were not released");
        }
    }
}
