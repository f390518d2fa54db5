package io.rocelab.nic;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A shared receive queue ({@code ibv_srq}, IBA 10.2.9): one pool of receive WQEs that any number
 * of RC and UD QPs attached to it consume, in posting order, whichever QP the message arrives on.
 *
 * <p>Limit (IBA 10.2.9, {@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}): once armed with a
 * limit, the first time a QP takes a WQE and fewer than {@code limit} remain, the device raises
 * {@link AsyncEventType#SRQ_LIMIT_REACHED} and disarms (the limit reads 0 again), so an
 * application can refill before senders meet RNR NAKs. WQEs of an SRQ are not flushed when one of
 * its QPs goes to the error state; that QP reports {@link AsyncEventType#QP_LAST_WQE_REACHED}
 * instead (IBA 11.6.3).
 *
 * <p>Threading: posts come from any thread and are counted at once (so a full SRQ is refused at
 * the call, like {@code ENOMEM}); the WQEs themselves are touched only by the NIC's thread.
 */
public final class SharedReceiveQueue {
    private final SoftNic nic;
    private final ProtectionDomain pd;
    private final int handle;
    private final int maxWr;
    private final int maxSge;
    /** Posted and not yet taken; counts posts still in the command queue too. */
    private final AtomicInteger count = new AtomicInteger();
    private volatile int limit;
    final ArrayDeque<RecvWqe> wqes = new ArrayDeque<>();

    SharedReceiveQueue(SoftNic nic, ProtectionDomain pd, int handle, int maxWr, int maxSge) {
        this.nic = nic;
        this.pd = pd;
        this.handle = handle;
        this.maxWr = maxWr;
        this.maxSge = maxSge;
    }

    public int handle() {
        return handle;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public int maxWr() {
        return maxWr;
    }

    /** WQEs posted and not yet consumed. */
    public int size() {
        return count.get();
    }

    /** The armed limit, or 0 when not armed ({@code ibv_query_srq}'s {@code srq_limit}). */
    public int limit() {
        return limit;
    }

    /**
     * Arms the limit event ({@code ibv_modify_srq(IBV_SRQ_LIMIT)}); 0 disarms.
     *
     * @throws IllegalArgumentException if {@code newLimit} is negative or above max_wr
     */
    public void modifyLimit(int newLimit) {
        if (newLimit < 0 || newLimit > maxWr) {
            throw new IllegalArgumentException("srq limit must be 0.." + maxWr + ": " + newLimit);
        }
        limit = newLimit;
    }

    /**
     * Posts receive WRs ({@code ibv_post_srq_recv}).
     *
     * @throws IllegalArgumentException if a WR has more SGEs than max_sge
     * @throws IllegalStateException if the SRQ would hold more than max_wr WQEs
     */
    public void postRecv(RecvWr... wrs) {
        RecvWqe[] batch = new RecvWqe[wrs.length];
        for (int i = 0; i < wrs.length; i++) {
            RecvWr wr = Objects.requireNonNull(wrs[i], "wr");
            if (wr.sgl().length > maxSge) {
                throw new IllegalArgumentException("sgl has " + wr.sgl().length + " elements, max " + maxSge);
            }
            batch[i] = new RecvWqe(wr);
        }
        if (count.addAndGet(batch.length) > maxWr) {
            count.addAndGet(-batch.length);
            throw new IllegalStateException("SRQ " + handle + " is full (max_wr " + maxWr + ")");
        }
        nic.submit(() -> {
            for (RecvWqe w : batch) {
                wqes.add(w);
            }
        });
    }

    /** Takes the oldest WQE for a QP (owner thread), raising the limit event as rxe's get_srq_wqe does. */
    RecvWqe take() {
        RecvWqe w = wqes.poll();
        if (w == null) {
            return null;
        }
        int left = count.decrementAndGet();
        int l = limit;
        if (l != 0 && left < l) {
            limit = 0;
            nic.raise(AsyncEvent.ofSrq(AsyncEventType.SRQ_LIMIT_REACHED, this));
        }
        return w;
    }

    @Override
    public String toString() {
        return "srq" + handle + "{size=" + count.get() + ", limit=" + limit + "}";
    }
}
