package io.rocelab.fabric.time;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The timers of one owner thread in real time: an {@link EventQueue} keyed by deadline on the
 * scheduler's clock, ties in scheduling order. An uncancellable timer is its task in the heap (no
 * allocation); a cancellable one is a {@link Timer} handle, cancelled from any thread in O(1) and
 * skipped when it reaches the front, the heap compacted when cancelled ones outnumber the rest.
 * A task that throws is logged and the others still run, as on a Netty event loop.
 *
 * <p>Owner thread only, except {@link Timer#cancel()}.
 */
final class TimerHeap {
    private static final System.Logger LOG = System.getLogger(TimerHeap.class.getName());
    /** Compaction is not worth it for a handful of cancelled timers. */
    private static final int COMPACTION_THRESHOLD = 1024;

    private final Scheduler owner;
    private final EventQueue heap = new EventQueue();
    private long nextSequence;
    private int cancelled;

    /** @param owner the scheduler whose thread owns this heap (cancellations from it compact) */
    TimerHeap(Scheduler owner) {
        this.owner = owner;
    }

    boolean isEmpty() {
        return heap.isEmpty();
    }

    /** The earliest deadline; only valid when not empty. */
    long peekTime() {
        return heap.peekTime();
    }

    void add(long deadlineNanos, Runnable task) {
        heap.add(deadlineNanos, nextSequence++, task);
    }

    /** A handle to put in the heap with {@link #add}; cancel it from any thread. */
    Timer newTimer(Runnable task) {
        return new Timer(this, task);
    }

    /**
     * Runs, in deadline order, every timer due at or before {@code nowNanos}. A timer added meanwhile
     * for a later time waits for the next call, so a task re-arming itself for "now" ends the run.
     *
     * @return how many ran
     */
    int runDue(long nowNanos, String threadName) {
        int ran = 0;
        while (!heap.isEmpty() && heap.peekTime() <= nowNanos) {
            final Runnable t = heap.poll();
            if (t instanceof Timer timer && timer.isCancelled()) {
                cancelled--;
                continue;
            }
            try {
                t.run();
            } catch (RuntimeException | Error e) {
                LOG.log(Level.WARNING, threadName + ": a timer threw", e);
            }
            ran++;
        }
        return ran;
    }

    void clear() {
        heap.clear();
        cancelled = 0;
    }

    private void onCancelled() {
        if (owner.inOwnerThread()) {
            cancelled++;
            if (cancelled >= COMPACTION_THRESHOLD && cancelled > heap.size() - cancelled) {
                cancelled -= heap.removeIf(t -> t instanceof Timer timer && timer.isCancelled());
            }
        }
    }

    /** A cancellable timer: the handle a scheduler returns, and the entry in the heap. */
    static final class Timer implements Runnable, Cancellable {
        private static final VarHandle STATE;
        private static final int PENDING = 0;
        private static final int STARTED = 1;
        private static final int CANCELLED = 2;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Timer.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final TimerHeap heap;
        private final Runnable task;
        @SuppressWarnings("unused") // through STATE
        private volatile int state;

        private Timer(TimerHeap heap, Runnable task) {
            this.heap = heap;
            this.task = task;
        }

        boolean isCancelled() {
            return state == CANCELLED;
        }

        @Override
        public void run() {
            if (STATE.compareAndSet(this, PENDING, STARTED)) {
                task.run();
            }
        }

        @Override
        public boolean cancel() {
            if (STATE.compareAndSet(this, PENDING, CANCELLED)) {
                heap.onCancelled();
                return true;
            }
            return false;
        }
    }
}
