package io.rocelab.perftest.nic;

import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.perftest.report.LatMeasurement;
import io.rocelab.perftest.run.LatDuration;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * perftest's latency loops on QP 0 of the soft NIC, for {@code -n} iterations or for {@code -D}
 * seconds: the write ping-pong ({@code run_iter_lat_write}), the send ping-pong
 * ({@code run_iter_lat_send}) and request-response for read and atomic ({@code run_iter_lat}).
 */
final class LatencyRun {
    static final double NS_PER_MICRO = 1000;
    private static final VarHandle BYTES = MethodHandles.arrayElementVarHandle(byte[].class);

    private final NicQueues q;
    private final Waiter waiter;
    private final List<WorkCompletion> wcs = new ArrayList<>(BandwidthRun.POLL_BATCH);

    LatencyRun(NicQueues queues, Waiter waiter) {
        this.q = queues;
        this.waiter = waiter;
    }

    /** {@code -n}: the post time of each iteration. */
    LatMeasurement iterations(long size) throws Exception {
        long iters = q.options.iterations();
        long[] posted = new long[(int) iters];
        long done = latency(size, iters, Long.MAX_VALUE, posted);
        if (done < iters) {
            throw new IllegalStateException("latency run stopped after " + done + " of " + iters + " iterations");
        }
        return new LatMeasurement(size, iters, q.options.kind().verb(), posted, NS_PER_MICRO);
    }

    /** {@code -D}: iterations until the deadline. */
    LatDuration duration(long size) throws Exception {
        long start = System.nanoTime();
        long deadline = start + q.options.durationSeconds() * 1_000_000_000L;
        long done = latency(size, Long.MAX_VALUE, deadline, null);
        return new LatDuration(done, System.nanoTime() - start, NS_PER_MICRO);
    }

    /**
     * One latency run on QP 0.
     *
     * @param posted post tick of each iteration, or null
     * @return iterations completed
     */
    private long latency(long size, long iters, long deadline, long[] posted) throws Exception {
        switch (q.options.kind().verb()) {
            case WRITE:
                return writePingPong(size, iters, deadline, posted);
            case SEND:
                return sendPingPong(size, iters, deadline, posted);
            default:
                return requestResponse(size, iters, deadline, posted);
        }
    }

    /**
     * {@code run_iter_lat_write}: each side writes its iteration number into the last byte of the
     * message, which lands in the last byte of the peer's slot (the key record's {@code vaddr} plus
     * {@code size - 1}), and waits for the peer's count to show in the same byte of its own slot;
     * the server starts. Unlike {@code run_iter_lat_send}, where the client sends first, perftest's
     * write ping-pong skips the first wait on the server ({@code !(scnt < 1 && machine == SERVER)}):
     * a client that wrote first would wait forever for a perftest client, and overrun a perftest
     * server (its second write replaces the 1 the server is about to look for).
     */
    private long writePingPong(long size, long iters, long deadline, long[] posted) throws Exception {
        boolean server = q.options.isServer();
        byte[] buffer = q.buffer;
        int postIdx = (int) size - 1;
        int pollIdx = q.remoteSlotOffset(0) + (int) size - 1;
        SendWr wr = q.batch(0, size)[0].signaled(true);
        long scnt = 0;
        long rcnt = 0;
        long ccnt = 0;
        while (scnt < iters || rcnt < iters || ccnt < iters) {
            if (rcnt < iters && !(scnt < 1 && server)) {
                rcnt++;
                byte want = (byte) rcnt;
                waiter.reset();
                while ((byte) BYTES.getAcquire(buffer, pollIdx) != want) {
                    if (System.nanoTime() >= deadline) {
                        return scnt;
                    }
                    waiter.idle();
                }
            }
            if (scnt < iters) {
                if (!stamp(scnt, deadline, posted)) {
                    return scnt;
                }
                BYTES.setRelease(buffer, postIdx, (byte) (scnt + 1));
                q.qps[0].postSend(wr);
                scnt++;
            }
            if (ccnt < iters) {
                awaitSend(deadline, scnt, ccnt);
                ccnt++;
            }
        }
        return scnt;
    }

    /** {@code run_iter_lat_send}: send, wait for the peer's send, and again; the client starts. */
    private long sendPingPong(long size, long iters, long deadline, long[] posted) throws Exception {
        boolean client = q.options.isClient();
        SendWr wr = q.batch(0, size)[0].signaled(true);
        long scnt = 0;
        long rcnt = 0;
        while (scnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && client)) {
                WorkCompletion wc = await(q.recvCq, deadline);
                if (wc == null) {
                    return scnt;
                }
                q.check(wc, scnt, rcnt);
                rcnt++;
                q.postRecv(0);
            }
            if (scnt < iters) {
                if (!stamp(scnt, deadline, posted)) {
                    return scnt;
                }
                q.qps[0].postSend(wr);
                scnt++;
                if (!awaitSend(deadline, scnt, rcnt)) {
                    return scnt;
                }
            }
        }
        return scnt;
    }

    /** {@code run_iter_lat} for read and atomic: one request, its response, the next. */
    private long requestResponse(long size, long iters, long deadline, long[] posted) throws Exception {
        SendWr wr = q.batch(0, size)[0].signaled(true);
        long scnt = 0;
        while (scnt < iters) {
            if (!stamp(scnt, deadline, posted)) {
                return scnt;
            }
            q.qps[0].postSend(wr);
            scnt++;
            if (!awaitSend(deadline, scnt, scnt - 1)) {
                return scnt - 1;
            }
        }
        return scnt;
    }

    /**
     * Notes the time of post {@code scnt} in {@code posted} (perftest's {@code tposted}, when a
     * histogram or a percentile needs it), or says the run's deadline has passed and nothing is posted.
     */
    private static boolean stamp(long scnt, long deadline, long[] posted) {
        long now = System.nanoTime();
        if (now >= deadline) {
            return false;
        }
        if (posted != null) {
            posted[(int) scnt] = now;
        }
        return true;
    }

    private boolean awaitSend(long deadline, long scnt, long ccnt) throws InterruptedException {
        WorkCompletion wc = await(q.sendCq, deadline);
        if (wc == null) {
            return false;
        }
        q.check(wc, scnt, ccnt);
        return true;
    }

    /** The next completion of {@code cq}, or null at the deadline. */
    private WorkCompletion await(CompletionQueue cq, long deadline) throws InterruptedException {
        waiter.reset();
        while (true) {
            wcs.clear();
            if (waiter.poll(cq, 1, wcs) > 0) {
                return wcs.get(0);
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() >= deadline) {
                return null;
            }
        }
    }
}
