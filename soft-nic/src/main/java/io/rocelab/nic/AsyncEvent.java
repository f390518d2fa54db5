package io.rocelab.nic;

/**
 * One asynchronous event ({@code struct ibv_async_event}): its type and the object it is
 * affiliated with (a QP, a CQ or an SRQ; the others are null; a port's number, else 0).
 */
public record AsyncEvent(AsyncEventType type, QueuePair qp, CompletionQueue cq, SharedReceiveQueue srq, int port) {
    static AsyncEvent ofQp(AsyncEventType type, QueuePair qp) {
        return new AsyncEvent(type, qp, null, null, 0);
    }

    static AsyncEvent ofCq(AsyncEventType type, CompletionQueue cq) {
        return new AsyncEvent(type, null, cq, null, 0);
    }

    static AsyncEvent ofSrq(AsyncEventType type, SharedReceiveQueue srq) {
        return new AsyncEvent(type, null, null, srq, 0);
    }

    /** An event of the whole device ({@code IBV_EVENT_DEVICE_FATAL}). */
    static AsyncEvent ofDevice(AsyncEventType type) {
        return new AsyncEvent(type, null, null, null, 0);
    }

    /** An event of a port ({@code IBV_EVENT_PORT_ACTIVE}, {@code IBV_EVENT_PORT_ERR}: {@code element.port_num}). */
    static AsyncEvent ofPort(AsyncEventType type, int port) {
        return new AsyncEvent(type, null, null, null, port);
    }

    @Override
    public String toString() {
        Object on = qp != null ? qp : cq != null ? cq : srq != null ? srq : port != 0 ? "port " + port : null;
        return type.verbsName() + (on == null ? "" : " on " + on);
    }
}
