package io.rocelab.perftest.nic;

import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.perftest.Verb;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * perftest's latency loops on QP 0 ({@code run_iter_lat_write}, {@code run_iter_lat_send},
 * {@code run_iter_lat}) as a state machine: {@link #step()} goes as far as it can without waiting
 * and says what it waits for. So either thread can drive one run: the application thread, backing
 * off between steps as a perftest process does ({@link LatencyRun}), or in-process the thread that
 * owns both NICs ({@link OwnerThreadLatency}), where a round trip costs no hand-off between threads
 * at all.
 *
 * <p>The loops, their counters and the values passed to each completion's check are perftest's, as
 * the loops on the application thread had them: each side of the write ping-pong writes its
 * iteration number into the last byte of the message, which lands in the last byte of the peer's
 * slot, and waits for the peer's count in its own (the server does not wait first); the send
 * ping-pong sends, waits for the peer's send, and again (the client starts); read and atomic post
 * one request and wait for its completion. A run that reaches its deadline ({@code -D}) ends with
 * the iterations posted, less the one posted whose completion did not come (request-response).
 */
final class LatencySteps implements OwnerThreadLatency.Run {
    /** What {@link #step()} stopped at. */
    enum Blocked {
        /** The peer's count in the receive slot (write ping-pong). */
        MEMORY,
        /** The send CQ. */
        SEND_CQ,
        /** The receive CQ. */
        RECV_CQ,
        /** The run is over: {@link #result()}. */
        DONE
    }

    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final int RECEIVE = 0;
    private static final int POST = 1;
    private static final int COMPLETE = 2;

    private final NicQueues q;
    private final Verb verb;
    private final boolean server;
    private final long iters;
    private final long deadline;
    /** Post time of each iteration (perftest's {@code tposted}), or null. */
    private final long[] posted;
    private final SendWr wr;
    private final byte[] buffer;
    /** Write ping-pong: where this side's count goes in its message, and where the peer's lands. */
    private final int postIdx;
    private final int pollIdx;
    private final List<WorkCompletion> wcs = new ArrayList<>(1);
    private long scnt;
    private long rcnt;
    private long ccnt;
    private int phase = RECEIVE;
    private boolean progressed;
    private long result = -1;

    /**
     * @param iters    iterations ({@code -n}), or {@link Long#MAX_VALUE} for a timed run
     * @param deadline {@code System.nanoTime()} at which a timed run ends, or {@link Long#MAX_VALUE}
     * @param posted   post time of each iteration, or null
     */
    LatencySteps(NicQueues queues, long size, long iters, long deadline, long[] posted) {
        this.q = queues;
        this.verb = queues.options.kind().verb();
        this.server = queues.options.isServer();
        this.iters = iters;
        this.deadline = deadline;
        this.posted = posted;
        this.wr = queues.batch(0, size)[0].signaled(true);
        this.buffer = queues.buffer;
        this.postIdx = (int) size - 1;
        this.pollIdx = queues.remoteSlotOffset(0) + (int) size - 1;
        this.phase = verb == Verb.WRITE || verb == Verb.SEND ? RECEIVE : POST;
    }

    /**
     * Advances the run as far as it goes without waiting. Throws what a completion's check throws (an
     * error completion ends the run with its message).
     *
     * @return what it waits for, or {@link Blocked#DONE}
     */
    @Override
    public Blocked step() {
        progressed = false;
        if (result >= 0) {
            return Blocked.DONE;
        }
        switch (verb) {
            case WRITE:
                return writeStep();
            case SEND:
                return sendStep();
            default:
                return requestResponseStep();
        }
    }

    /** Whether the last {@link #step()} did anything (received, posted or completed). */
    @Override
    public boolean progressed() {
        return progressed;
    }

    /** Iterations completed, once {@link #step()} returned {@link Blocked#DONE}. */
    @Override
    public long result() {
        return result;
    }

    private Blocked writeStep() {
        while (scnt < iters || rcnt < iters || ccnt < iters) {
            if (phase == RECEIVE) {
                if (rcnt < iters && !(scnt < 1 && server)) {
                    if ((byte) BYTES.getAcquire(buffer, pollIdx) != (byte) (rcnt + 1)) {
                        return pastDeadline() ? done(scnt) : Blocked.MEMORY;
                    }
                    rcnt++;
                    progressed = true;
                }
                phase = POST;
            }
            if (phase == POST) {
                if (scnt < iters) {
                    if (!stamp()) {
                        return done(scnt);
                    }
                    BYTES.setRelease(buffer, postIdx, (byte) (scnt + 1));
                    q.qps[0].postSend(wr);
                    scnt++;
                    progressed = true;
                }
                phase = COMPLETE;
            }
            if (ccnt < iters) {
                WorkCompletion wc = poll(q.sendCq);
                if (wc == null) {
                    return pastDeadline() ? done(scnt) : Blocked.SEND_CQ;
                }
                q.check(wc, scnt, ccnt);
                ccnt++;
                progressed = true;
            }
            phase = RECEIVE;
        }
        return done(scnt);
    }

    private Blocked sendStep() {
        boolean client = !server;
        while (scnt < iters || rcnt < iters) {
            if (phase == RECEIVE) {
                if (rcnt < iters && !(scnt < 1 && client)) {
                    WorkCompletion wc = poll(q.recvCq);
                    if (wc == null) {
                        return pastDeadline() ? done(scnt) : Blocked.RECV_CQ;
                    }
                    q.check(wc, scnt, rcnt);
                    rcnt++;
                    q.postRecv(0);
                    progressed = true;
                }
                phase = POST;
            }
            if (phase == POST) {
                if (scnt >= iters) {
                    phase = RECEIVE;
                    continue;
                }
                if (!post()) {
                    return done(scnt);
                }
                phase = COMPLETE;
            }
            WorkCompletion wc = poll(q.sendCq);
            if (wc == null) {
                return pastDeadline() ? done(scnt) : Blocked.SEND_CQ;
            }
            q.check(wc, scnt, rcnt);
            progressed = true;
            phase = RECEIVE;
        }
        return done(scnt);
    }

    private Blocked requestResponseStep() {
        while (scnt < iters || phase == COMPLETE) {
            if (phase == POST) {
                if (!post()) {
                    return done(scnt);
                }
                phase = COMPLETE;
            }
            WorkCompletion wc = poll(q.sendCq);
            if (wc == null) {
                return pastDeadline() ? done(scnt - 1) : Blocked.SEND_CQ;
            }
            q.check(wc, scnt, scnt - 1);
            progressed = true;
            phase = POST;
        }
        return done(scnt);
    }

    /** Posts the next WR, stamped, unless the run's deadline has passed (then false, nothing posted). */
    private boolean post() {
        if (!stamp()) {
            return false;
        }
        q.qps[0].postSend(wr);
        scnt++;
        progressed = true;
        return true;
    }

    private WorkCompletion poll(CompletionQueue cq) {
        wcs.clear();
        return cq.poll(1, wcs) > 0 ? wcs.get(0) : null;
    }

    /**
     * Notes the time of post {@code scnt} in {@code posted} (perftest's {@code tposted}, when a
     * histogram or a percentile needs it), or says the run's deadline has passed and nothing is posted.
     */
    private boolean stamp() {
        long now = System.nanoTime();
        if (now >= deadline) {
            return false;
        }
        if (posted != null) {
            posted[(int) scnt] = now;
        }
        return true;
    }

    private boolean pastDeadline() {
        return deadline != Long.MAX_VALUE && System.nanoTime() >= deadline;
    }

    private Blocked done(long completed) {
        result = completed;
        return Blocked.DONE;
    }
}
