package io.rocelab.fabric.queue;

import io.netty.util.internal.PlatformDependent;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.jctools.queues.atomic.SpscUnboundedAtomicArrayQueue;

/**
 * Creates JCTools queues: the fast kind, built on {@code sun.misc.Unsafe}, where Netty uses
 * {@code Unsafe} too, and otherwise their twins built on {@code java.util.concurrent.atomic}.
 *
 * <p>Why: from Java 24 each first use of {@code Unsafe}'s memory methods prints a warning on
 * standard error (JEP 498), and later releases are to refuse them; Netty stops using {@code Unsafe}
 * by default on Java 25. Following Netty's choice ({@link PlatformDependent#hasUnsafe()}, which
 * {@code -Dio.netty.noUnsafe=true} turns off on any Java) keeps the tools' output clean there and
 * keeps the faster queues on the Java versions where they are free.
 */
public final class MessageQueues {
    private static final boolean UNSAFE = PlatformDependent.hasUnsafe();

    private MessageQueues() {
    }

    /**
     * Many producers, one consumer, unbounded: linked chunks of {@code chunkSize}.
     */
    public static <E> MessagePassingQueue<E> mpscUnbounded(int chunkSize) {
        return UNSAFE ? new MpscUnboundedArrayQueue<>(chunkSize) : new MpscUnboundedAtomicArrayQueue<>(chunkSize);
    }

    /**
     * Many producers, one consumer, unbounded, producers claiming slots with one fetch-and-add;
     * without {@code Unsafe} the plain linked-chunk queue ({@code pooledChunks} is then unused).
     *
     * @param pooledChunks how many emptied chunks the queue keeps for reuse
     */
    public static <E> MessagePassingQueue<E> mpscUnboundedXadd(int chunkSize, int pooledChunks) {
        return UNSAFE ? new MpscUnboundedXaddArrayQueue<>(chunkSize, pooledChunks)
            : new MpscUnboundedAtomicArrayQueue<>(chunkSize);
    }

    /**
     * One producer, one consumer, unbounded: linked chunks of {@code chunkSize}.
     */
    public static <E> MessagePassingQueue<E> spscUnbounded(int chunkSize) {
        return UNSAFE ? new SpscUnboundedArrayQueue<>(chunkSize) : new SpscUnboundedAtomicArrayQueue<>(chunkSize);
    }

    /**
     * One producer, one consumer, at most {@code capacity} elements (rounded up to a power of two).
     */
    public static <E> MessagePassingQueue<E> spscBounded(int capacity) {
        return UNSAFE ? new SpscArrayQueue<>(capacity) : new SpscAtomicArrayQueue<>(capacity);
    }

    /**
     * Many producers, many consumers, at most {@code capacity} elements (rounded up to a power of two).
     */
    public static <E> MessagePassingQueue<E> mpmcBounded(int capacity) {
        return UNSAFE ? new MpmcArrayQueue<>(capacity) : new MpmcAtomicArrayQueue<>(capacity);
    }
}
