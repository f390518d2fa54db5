package io.rocelab.nic;

import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The device's asynchronous event queue ({@code ibv_get_async_event}): the NIC thread raises, a
 * user thread polls, or a listener is called on the NIC thread as the event is raised. Events are
 * rare (errors, drained queues, limits), so a plain concurrent queue is enough here.
 */
final class AsyncEvents {
    private final ConcurrentLinkedQueue<AsyncEvent> queue = new ConcurrentLinkedQueue<>();
    private volatile Consumer<AsyncEvent> listener;

    void raise(AsyncEvent e) {
        queue.add(e);
        Consumer<AsyncEvent> l = listener;
        if (l != null) {
            l.accept(e);
        }
    }

    AsyncEvent poll() {
        return queue.poll();
    }

    void listener(Consumer<AsyncEvent> l) {
        listener = Objects.requireNonNull(l, "listener");
    }
}
