package io.rocelab.nic.cc;

import java.util.Arrays;
import java.util.Objects;

/**
 * The reaction point alone against a trace of CNP arrival times, as a fluid source that always
 * sends at Rc: between two events it sends Rc x (time between them), so the byte counter fires at
 * the first nanosecond at which the bytes have reached it. {@code rocelab dcqcn replay} prints what
 * this produces; tests check it against values worked out by hand from the rules in
 * {@link DcqcnReactionPoint}.
 *
 * <p>Samples are taken at 0, S, 2S, ... up to the duration; each is the state after every event due
 * at or before its time (CNPs, then alpha, decrease, increase timer, byte counter, as rule 5 orders
 * them).
 */
public final class DcqcnReplay {
    private static final double NANOS_PER_SECOND = 1e9;

    /** One sample of the reaction point's state. */
    public record Sample(long timeNanos, double rateBitsPerSecond, double targetBitsPerSecond, double alpha,
                         int timerStage, int byteStage) {
    }

    /** Takes the samples in time order. */
    @FunctionalInterface
    public interface SampleSink {
        void accept(Sample s);
    }

    private final DcqcnParams params;
    private final double lineRate;

    public DcqcnReplay(DcqcnParams params, double lineRateBitsPerSecond) {
        this.params = Objects.requireNonNull(params, "params");
        if (!(lineRateBitsPerSecond > 0)) {
            throw new IllegalArgumentException("line rate must be > 0: " + lineRateBitsPerSecond);
        }
        this.lineRate = lineRateBitsPerSecond;
    }

    /**
     * @param cnpNanos       CNP arrival times, non-decreasing, none negative
     * @param sampleNanos    the sampling period, &gt; 0
     * @param durationNanos  the last sample is at or before this time
     */
    public void run(long[] cnpNanos, long sampleNanos, long durationNanos, SampleSink sink) {
        if (sampleNanos <= 0) {
            throw new IllegalArgumentException("sample period must be > 0: " + sampleNanos);
        }
        if (durationNanos < 0) {
            throw new IllegalArgumentException("duration must be >= 0: " + durationNanos);
        }
        for (int i = 0; i < cnpNanos.length; i++) {
            if (cnpNanos[i] < 0 || i > 0 && cnpNanos[i] < cnpNanos[i - 1]) {
                throw new IllegalArgumentException("CNP times must be >= 0 and in order: " + Arrays.toString(cnpNanos));
            }
        }
        DcqcnReactionPoint rp = new DcqcnReactionPoint(params, lineRate);
        long now = 0;
        int next = 0;
        long nextSample = 0;
        while (nextSample <= durationNanos) {
            long cnpAt = next < cnpNanos.length ? cnpNanos[next] : CongestionControl.NEVER;
            long at = Math.min(Math.min(cnpAt, rp.nextTimerNanos()), Math.min(byteEventAt(rp, now), nextSample));
            rp.accumulate(rp.rateBitsPerSecond() * (at - now) / (8 * NANOS_PER_SECOND));
            now = at;
            while (next < cnpNanos.length && cnpNanos[next] == now) {
                rp.onCnp(now);
                next++;
            }
            rp.onTimer(now);
            rp.fireByteEvents();
            if (now == nextSample) {
                sink.accept(new Sample(now, rp.rateBitsPerSecond(), rp.targetRateBitsPerSecond(), rp.alpha(),
                    rp.timerStage(), rp.byteStage()));
                nextSample += sampleNanos;
            }
        }
    }

    /** When a source sending at Rc from {@code now} reaches the next byte event (rounded up to a ns). */
    private static long byteEventAt(DcqcnReactionPoint rp, long now) {
        double bytes = rp.bytesToNextByteEvent();
        double rate = rp.rateBitsPerSecond();
        if (Double.isInfinite(bytes) || rate <= 0) {
            return CongestionControl.NEVER;
        }
        double nanos = Math.ceil(bytes * 8 * NANOS_PER_SECOND / rate);
        return nanos >= CongestionControl.NEVER - now ? CongestionControl.NEVER : now + (long) nanos;
    }
}
