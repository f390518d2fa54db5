package io.rocelab.nic;

import io.rocelab.fabric.queue.MessageQueues;
import org.jctools.queues.MessagePassingQueue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A completion queue ({@code ibv_cq}). The NIC's owner thread is the only producer; one user thread
 * polls (docs/design.md §3: "completion queues are read through a single-producer queue the NIC fills").
 *
 * <p>Notification ({@code ibv_req_notify_cq}): after {@link #requestNotify(boolean)} the handler set
 * with {@link #onNotify} runs once, on the NIC's thread, for the next completion (or, with
 * {@code solicitedOnly}, the next solicited receive or error completion, IBA 11.4.2.2).
 */
public final class CompletionQueue {
    private final int handle;
    private final int capacity;
    private final MessagePassingQueue<WorkCompletion> queue = MessageQueues.spscUnbounded(256);
    /**
     * Completions pushed (written by the NIC thread only) and polled (by the polling thread only):
     * two single-writer counters instead of one shared read-modify-write counter, so neither side
     * takes the other's cache line with a locked instruction per completion.
     */
    private final AtomicLong pushed = new AtomicLong();
    private final AtomicLong polled = new AtomicLong();
    private volatile Runnable handler;
    /** {@link #DISARMED}, {@link #NEXT} or {@link #SOLICITED}; the user arms, the NIC thread disarms. */
    private final AtomicInteger armed = new AtomicInteger();
    private static final int DISARMED = 0;
    private static final int NEXT = 1;
    private static final int SOLICITED = 2;
    /**
     * Completion moderation ({@code ibv_modify_cq}'s {@code cq_count}): a next-completion request
     * fires once the CQ holds this many completions (or on an error completion). 1: every completion.
     */
    private volatile int moderationCount = 1;
    private volatile boolean overflowed;
    /** Told once, on the NIC thread, when the CQ overflows. */
    private java.util.function.Consumer<CompletionQueue> overflowHandler = cq -> { };

    CompletionQueue(int handle, int capacity) {
        this.handle = handle;
        this.capacity = capacity;
    }

    public int handle() {
        return handle;
    }

    /** The next completion, or null. */
    public WorkCompletion poll() {
        WorkCompletion wc = queue.poll();
        if (wc != null) {
            polled.setRelease(polled.getPlain() + 1);
        }
        return wc;
    }

    /** Moves up to {@code max} completions into {@code out}; returns how many ({@code ibv_poll_cq}). */
    public int poll(int max, List<WorkCompletion> out) {
        int n = 0;
        WorkCompletion wc;
        while (n < max && (wc = poll()) != null) {
            out.add(wc);
            n++;
        }
        return n;
    }

    public int size() {
        final long out = polled.getAcquire();
        return (int) (pushed.getAcquire() - out);
    }

    /**
     * Whether the CQ overflowed: a completion found it full, was lost, and the CQ went to the error
     * state; no completion is added after that (IBA 11.6.3: a CQ overrun is an affiliated asynchronous error; rxe raises IB_EVENT_CQ_ERR).
     */
    public boolean overflowed() {
        return overflowed;
    }

    void onOverflow(java.util.function.Consumer<CompletionQueue> h) {
        overflowHandler = h;
    }

    public void onNotify(Runnable notifyHandler) {
        this.handler = notifyHandler;
    }

    /**
     * Arms the CQ for one notification ({@code ibv_req_notify_cq}). A request for the next
     * completion is not narrowed by a later solicited-only request before it fired (IBA 11.4.2.2;
     * rxe_req_notify_cq keeps IB_CQ_NEXT_COMP). Completions already queued do not fire it.
     */
    public void requestNotify(boolean solicitedOnly) {
        armed.updateAndGet(a -> a == NEXT ? NEXT : solicitedOnly ? SOLICITED : NEXT);
    }

    /**
     * Completion moderation, as {@code ibv_modify_cq} with {@code IBV_CQ_MODERATE} sets
     * {@code cq_count} (the period is not modelled): after {@link #requestNotify(boolean) requestNotify(false)}
     * the handler runs when a completion leaves at least {@code count} completions in the queue, or
     * for an unsuccessful completion, instead of for the next completion. A poller that sleeps until
     * notified then wakes once per {@code count} completions, not once per completion. Solicited-only
     * requests are not moderated. The check is made when a completion arrives: a caller that arms
     * should look at {@link #size()} once more afterwards, and sleep with a timeout, since fewer than
     * {@code count} completions may ever come.
     *
     * @param count 1 (the default: no moderation) up to the CQ's capacity
     */
    public void moderate(int count) {
        if (count < 1 || count > capacity) {
            throw new IllegalArgumentException("moderation count must be 1.." + capacity + ": " + count);
        }
        moderationCount = count;
    }

    /** How many completions the CQ holds before it overflows ({@code ibv_create_cq}'s {@code cqe}). */
    public int capacity() {
        return capacity;
    }

    /** The moderation count set with {@link #moderate(int)} (1: none). */
    public int moderationCount() {
        return moderationCount;
    }

    /** Whether a notification request is pending (armed and not yet fired). */
    public boolean isArmed() {
        return armed.get() != DISARMED;
    }

    /** Called on the NIC thread. */
    void push(WorkCompletion wc, boolean solicited) {
        if (overflowed) {
            return;
        }
        final long in = pushed.getPlain();
        if (in - polled.getAcquire() >= capacity) {
            overflowed = true;
            overflowHandler.accept(this);
            return;
        }
        queue.offer(wc);
        pushed.setRelease(in + 1);
        int a = armed.get();
        // IBA 11.4.2.2: "next" fires on any completion (moderated: once the CQ holds moderationCount, or on
        // an error); "solicited" on a receive of a message with the SE bit, or on any completion in error.
        // One request, one notification.
        if (a != DISARMED && (a == NEXT ? !wc.isSuccess() || in + 1 - polled.getAcquire() >= moderationCount
                : solicited || !wc.isSuccess()) && armed.compareAndSet(a, DISARMED)) {
            Runnable h = handler;
            if (h != null) {
                h.run();
            }
        }
    }

    @Override
    public String toString() {
        return "cq" + handle + "{size=" + size() + "}";
    }
}
