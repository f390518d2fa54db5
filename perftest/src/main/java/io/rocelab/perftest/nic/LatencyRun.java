package io.rocelab.perftest.nic;

import io.rocelab.perftest.report.LatMeasurement;
import io.rocelab.perftest.run.LatDuration;

/**
 * perftest's latency loops on QP 0 of the soft NIC, for {@code -n} iterations or for {@code -D}
 * seconds: the write ping-pong ({@code run_iter_lat_write}), the send ping-pong
 * ({@code run_iter_lat_send}) and request-response for read and atomic ({@code run_iter_lat}), each
 * a {@link LatencySteps} driven from the application thread or, in-process, from the thread that
 * owns both NICs ({@link OwnerThreadLatency}).
 */
final class LatencyRun {
    static final double NS_PER_MICRO = 1000;

    private final NicQueues q;
    private final Waiter waiter;
    /** In-process: the runs go to the NICs' thread; else null. */
    private final OwnerThreadLatency ownerThread;

    LatencyRun(NicQueues queues, Waiter waiter, OwnerThreadLatency ownerThread) {
        this.q = queues;
        this.waiter = waiter;
        this.ownerThread = ownerThread;
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
     * One latency run on QP 0: on the NICs' thread in-process, else here.
     *
     * @param posted post tick of each iteration, or null
     * @return iterations completed
     */
    private long latency(long size, long iters, long deadline, long[] posted) throws Exception {
        LatencySteps steps = new LatencySteps(q, size, iters, deadline, posted);
        return ownerThread != null ? ownerThread.run(steps) : onThisThread(steps);
    }

    /**
     * Drives {@code steps} from this thread, backing off between steps that found nothing
     * ({@link Waiter}: spin, yield, then sleep on the CQ's notification or for a moment).
     */
    private long onThisThread(LatencySteps steps) throws InterruptedException {
        waiter.reset();
        while (true) {
            LatencySteps.Blocked b = steps.step();
            if (steps.progressed()) {
                waiter.reset();
            }
            switch (b) {
                case DONE:
                    return steps.result();
                case MEMORY:
                    waiter.idle();
                    break;
                case SEND_CQ:
                    waiter.await(q.sendCq);
                    break;
                default:
                    waiter.await(q.recvCq);
                    break;
            }
        }
    }
}
