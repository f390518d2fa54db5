package io.rocelab.fabric.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.PlatformDependent;
import java.util.List;
import java.util.function.Supplier;
import org.jctools.queues.MessagePassingQueue;
import org.junit.jupiter.api.Test;

/**
 * Every queue kind keeps order across its chunks, and is the kind this JVM allows: JCTools' atomic
 * twins exactly where Netty does without {@code Unsafe} (the other kind runs in JavaRuntimesIT).
 */
class MessageQueuesTest {

    @Test
    void eachKindIsFifoAcrossChunksAndTheKindFollowsNetty() {
        List<Supplier<MessagePassingQueue<Integer>>> kinds = List.of(
            () -> MessageQueues.mpscUnbounded(16),
            () -> MessageQueues.mpscUnboundedXadd(16, 2),
            () -> MessageQueues.spscUnbounded(16),
            () -> MessageQueues.mpmcBounded(1024));
        for (Supplier<MessagePassingQueue<Integer>> kind : kinds) {
            MessagePassingQueue<Integer> q = kind.get();
            String name = q.getClass().getName();
            assertEquals(!PlatformDependent.hasUnsafe(), name.startsWith("org.jctools.queues.atomic."), name);
            for (int i = 0; i < 1000; i++) {
                assertTrue(q.offer(i), name);
            }
            assertEquals(1000, q.size(), name);
            for (int i = 0; i < 1000; i++) {
                assertEquals(i, q.relaxedPoll(), name);
            }
            assertNull(q.poll(), name);
            assertTrue(q.isEmpty(), name);
        }
    }
}
