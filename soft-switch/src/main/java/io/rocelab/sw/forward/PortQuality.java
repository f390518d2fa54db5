package io.rocelab.sw.forward;

import io.rocelab.sw.config.ArsConfig;
import java.util.Arrays;

/**
 * A port's quality as Broadcom's DLB and SAI's ARS profile measure it (saiarsprofile.h,
 * {@code SAI_ARS_PROFILE_ALGO_EWMA}): the past load, an exponentially weighted moving average of
 * the bytes the port sent per sampling interval ({@code SAI_ARS_PROFILE_ATTR_SAMPLING_INTERVAL}),
 * with SAI's default exponent 2 ({@code SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT}: each sample
 * counts a quarter), as a percentage of its line rate; and the future load, its queued bytes now.
 * Each is quantised into eight bands between the profile's min and max values (SAI's
 * {@code QUANT_BAND_0..7}), and the two bands weighed ({@code past_load_weight},
 * {@code future_load_weight}) into one quality band, 0 the best, 7 the worst.
 *
 * <p>Why both: the queue alone misses a port that carries one flow at line rate (its queue stays
 * empty, yet a second flow there would halve both); the past load alone reacts a sampling interval
 * late. Sampling is lazy: a port's average is brought up to date when a packet asks for it, each
 * interval elapsed since its last sample counting as one sample of the average rate over them, so
 * an idle switch does no work and the result depends only on the times passed in. Owner thread only.
 */
public final class PortQuality {
    /** SAI_ARS_PROFILE_ATTR_QUANT_BANDS: bands 0-7. */
    public static final int BANDS = 8;
    /** SAI_ARS_PROFILE_ATTR_PORT_LOAD_EXPONENT's default: each sample moves the average by 1/2^2. */
    private static final int EXPONENT = 2;
    /** Intervals caught up at most when a port is sampled after a long time: the average has forgotten the rest. */
    private static final int MAX_CATCH_UP = 64;

    private final PortView ports;
    private final long interval;
    private final double pastMin;
    private final double pastMax;
    private final long futureMin;
    private final long futureMax;
    /** The queued bytes at which each band from 1 to 7 starts: a band is found by comparing, not dividing. */
    private final long[] futureEdges = new long[BANDS - 1];
    /** The quality band of each past band (row) and future band (column): the weighing, done once. */
    private final int[] weighed = new int[BANDS * BANDS];
    private long[] sampledAt = new long[0];
    private long[] sentAt = new long[0];
    /** Past load, percent of line rate; every port starts idle, sampled at time 0 with nothing sent. */
    private double[] average = new double[0];
    /** The band of {@link #average}, updated with it once per sampling interval. */
    private int[] pastBand = new int[0];

    /**
     * @param ports   the switch's ports: queued and transmitted bytes, line rates
     * @param profile the ARS profile
     */
    public PortQuality(PortView ports, ArsConfig.Profile profile) {
        this.ports = ports;
        this.interval = Math.max(1, profile.samplingIntervalNanos());
        this.pastMin = profile.pastLoadMin();
        this.pastMax = profile.pastLoadMax();
        this.futureMin = profile.futureLoadMinBytes();
        this.futureMax = profile.futureLoadMaxBytes();
        int pastWeight = profile.pastLoadWeight();
        int futureWeight = profile.futureLoadWeight();
        int weights = pastWeight + futureWeight;
        for (int past = 0; past < BANDS; past++) {
            for (int future = 0; future < BANDS; future++) {
                weighed[past * BANDS + future] = weights == 0 ? 0
                    : (pastWeight * past + futureWeight * future + weights / 2) / weights;
            }
        }
        for (int b = 1; b < BANDS; b++) {
            // the least number of bytes that quantise(bytes, min, max) puts in band b
            long edge = futureMin + ((futureMax - futureMin) * b + BANDS - 1) / BANDS;
            futureEdges[b - 1] = futureMax <= futureMin ? futureMin + 1 : Math.max(edge, futureMin + 1);
        }
    }

    /** @return interface {@code iface}'s quality band now, 0 (best) to 7 */
    public int band(int iface, long now) {
        pastLoad(iface, now);
        long queued = ports.queuedBytes(iface);
        int future = 0;
        while (future < BANDS - 1 && queued >= futureEdges[future]) {
            future++;
        }
        return weighed[pastBand[iface] * BANDS + future];
    }

    /** @return interface {@code iface}'s past load, percent of its line rate, its average brought up to {@code now} */
    public double pastLoad(int iface, long now) {
        if (iface >= average.length) {
            int n = Math.max(iface + 1, average.length * 2);
            sampledAt = Arrays.copyOf(sampledAt, n);
            sentAt = Arrays.copyOf(sentAt, n);
            average = Arrays.copyOf(average, n);
            pastBand = Arrays.copyOf(pastBand, n);
        }
        long elapsed = now - sampledAt[iface];
        if (elapsed >= interval) {
            long sent = ports.transmittedBytes(iface);
            long speed = ports.speedBitsPerSecond(iface);
            double percent = speed <= 0 ? 0 : (sent - sentAt[iface]) * 8e9 * 100 / ((double) elapsed * speed);
            long samples = elapsed / interval;
            double a = average[iface];
            for (long i = Math.min(samples, MAX_CATCH_UP); i > 0; i--) {
                a += (percent - a) / (1 << EXPONENT);
            }
            average[iface] = a;
            pastBand[iface] = quantise(a, pastMin, pastMax);
            sampledAt[iface] = samples > MAX_CATCH_UP ? now : sampledAt[iface] + samples * interval;
            sentAt[iface] = sent;
        }
        return average[iface];
    }

    /**
     * The best live member: the lowest quality band, the first of equals counted from {@code tieBreak}.
     *
     * @return the member, or -1 if all are down
     */
    public int best(EcmpGroup group, long tieBreak, long now) {
        int n = group.liveCount(ports);
        if (n == 0) {
            return -1;
        }
        int at = (int) Long.remainderUnsigned(tieBreak, n);
        int best = -1;
        int bestBand = Integer.MAX_VALUE;
        for (int i = 0; i < n && bestBand > 0; i++) {
            int m = group.liveMember(at);
            int b = band(group.port(m), now);
            if (b < bestBand) {
                bestBand = b;
                best = m;
            }
            if (++at == n) {
                at = 0;
            }
        }
        return best;
    }

    /** @return the band of {@code bytes} queued between {@code min} (band 0 and below) and {@code max} (band 7 and above) */
    static int quantise(long bytes, long min, long max) {
        if (bytes <= min || max <= min) {
            return bytes > min ? BANDS - 1 : 0;
        }
        if (bytes >= max) {
            return BANDS - 1;
        }
        return (int) ((bytes - min) * BANDS / (max - min));
    }

    /** @return the band of {@code value} between {@code min} (band 0 and below) and {@code max} (band 7 and above) */
    static int quantise(double value, double min, double max) {
        if (value <= min || max <= min) {
            return value > min ? BANDS - 1 : 0;
        }
        if (value >= max) {
            return BANDS - 1;
        }
        return Math.min(BANDS - 1, (int) ((value - min) * BANDS / (max - min)));
    }
}
