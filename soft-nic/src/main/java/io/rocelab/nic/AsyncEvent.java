package io.rocelab.nic;

/**
 * One asynchronous event ({@code struct ibv_async_event}): its type and the object it is
 * affiliated with (a QP, a CQ or an SRQ; the others are null).
 */
public record AsyncEvent(AsyncEventType type, QueuePair qp, CompletionQueue cq, SharedReceiveQueue srq) {
    static AsyncEvent ofQp(AsyncEventType type, QueuePair qp) {
        return new AsyncEvent(type, qp, null, null);
    }

    static AsyncEvent ofCq(AsyncEventType type, CompletionQueue cq) {
        return new AsyncEvent(type, null, cq, null);
    }

    static AsyncEvent ofSrq(AsyncEventType type, SharedReceiveQueue srq) {
        return new AsyncEvent(type, null, null, srq);
    }

    /** An event of the whole device ({@code IBV_EVENT_DEVICE_FATAL}). */
    static AsyncEvent ofDevice(AsyncEventType type) {
        return new AsyncEvent(type, null, null, null);
    }

    @Override
    public String toString() {
        Object on = qp != null ? qp : cq != null ? cq : srq;
        return type.verbsName() + (on == null ? "" : " on " + on);
    }
}
