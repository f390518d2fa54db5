package io.rocelab.fabric.endpoint;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;

import java.util.function.LongSupplier;

/**
 * How an epoll event loop waits: when it runs out of work it keeps polling (epoll_wait with a zero
 * timeout) for a short while before it blocks, as a NIC driver's busy poll does
 * ({@code net.core.busy_poll}). The next datagram or task of a busy flow usually comes within that
 * while, and then neither the loop goes to sleep nor does the thread that feeds it pay to wake it:
 * in UDP endpoint mode both ends are event loops waiting on each other, the receiver for data, the
 * sender for ACKs, and on a 2-vCPU VM the sleeps and wake-ups cost 10-15 % of each loop (async-profiler,
 * {@code ib_write_bw}, 64 KB). Polling for 100 µs after the last work raised that benchmark 8-49 %
 * in four rounds out of four with each namespace on a CPU of its own; without pinning it made no
 * difference beyond the noise. An idle loop blocks as before, once the while is over, so it costs
 * CPU only while traffic flows. Owner thread only (one instance per loop).
 */
final class SpinThenBlock implements SelectStrategy {
    private final long spinNanos;
    private final LongSupplier clock;
    private boolean idle;
    private long idleSince;

    /**
     * @param spinNanos how long to keep polling after the last work; 0 blocks at once, as Netty's
     *                  default strategy
     * @param clock     nanoTime
     */
    SpinThenBlock(long spinNanos, LongSupplier clock) {
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spinNanos must be >= 0: " + spinNanos);
        }
        this.spinNanos = spinNanos;
        this.clock = clock;
    }

    /** One instance per event loop: the strategy keeps that loop's idle time. */
    static SelectStrategyFactory factory(long spinNanos) {
        return () -> new SpinThenBlock(spinNanos, System::nanoTime);
    }

    @Override
    public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
        if (spinNanos == 0) {
            return hasTasks ? selectNow.get() : SelectStrategy.SELECT;
        }
        final int ready = selectNow.get();
        if (ready > 0 || hasTasks) {
            idle = false;
            return ready;
        }
        final long now = clock.getAsLong();
        if (!idle) {
            idle = true;
            idleSince = now;
        }
        if (now - idleSince < spinNanos) {
            return ready; // nothing ready: the loop runs its (empty) task queue and asks again
        }
        idle = false; // the next wake-up starts a new while of polling
        return SelectStrategy.SELECT;
    }
}
