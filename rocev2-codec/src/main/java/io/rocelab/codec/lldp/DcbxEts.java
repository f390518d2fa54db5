package io.rocelab.codec.lldp;

import java.util.Arrays;

/**
 * An ETS Configuration or Recommendation TLV (IEEE 802.1Qaz-2011 D.2.8, D.2.9): the priority
 * assignment table (which traffic class each of the 8 priorities is in), each traffic class's
 * share of the bandwidth in percent, and its transmission selection algorithm.
 *
 * @param willing          the sender accepts its peer's configuration (Configuration TLV only; false in a Recommendation)
 * @param cbs              credit-based shaper supported (Configuration TLV only)
 * @param maxTcs           traffic classes the sender supports, 1..8 (Configuration TLV only; 8 is sent as 0)
 * @param priorityToTc     8 entries: the traffic class of priority p, 0..7
 * @param tcBandwidth      8 entries: traffic class t's share of the bandwidth, percent (summing to 100 over ETS classes)
 * @param tsa              8 entries: traffic class t's algorithm ({@link #TSA_STRICT}, {@link #TSA_ETS}, ...)
 */
public record DcbxEts(boolean willing, boolean cbs, int maxTcs, int[] priorityToTc, int[] tcBandwidth, int[] tsa) {
    /** Transmission selection algorithm 0: strict priority (802.1Q Table 8-6). */
    public static final int TSA_STRICT = 0;
    /** 1: credit-based shaper. */
    public static final int TSA_CBS = 1;
    /** 2: enhanced transmission selection. */
    public static final int TSA_ETS = 2;
    /** 255: vendor specific. */
    public static final int TSA_VENDOR = 255;

    public DcbxEts {
        priorityToTc = checked(priorityToTc, "priority assignment", 7);
        tcBandwidth = checked(tcBandwidth, "TC bandwidth", 100);
        tsa = checked(tsa, "TSA", 255);
        if (maxTcs < 0 || maxTcs > 8) {
            throw new IllegalArgumentException("max TCs must be 0..8: " + maxTcs);
        }
    }

    private static int[] checked(int[] a, String what, int max) {
        if (a == null || a.length != 8) {
            throw new IllegalArgumentException(what + " needs 8 entries");
        }
        for (int v : a) {
            if (v < 0 || v > max) {
                throw new IllegalArgumentException(what + " entries must be 0.." + max + ": " + Arrays.toString(a));
            }
        }
        return a.clone();
    }

    @Override
    public int[] priorityToTc() {
        return priorityToTc.clone();
    }

    @Override
    public int[] tcBandwidth() {
        return tcBandwidth.clone();
    }

    @Override
    public int[] tsa() {
        return tsa.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DcbxEts e && willing == e.willing && cbs == e.cbs && maxTcs == e.maxTcs
            && Arrays.equals(priorityToTc, e.priorityToTc) && Arrays.equals(tcBandwidth, e.tcBandwidth)
            && Arrays.equals(tsa, e.tsa);
    }

    @Override
    public int hashCode() {
        return ((Boolean.hashCode(willing) * 31 + Boolean.hashCode(cbs)) * 31 + maxTcs) * 31
            + Arrays.hashCode(priorityToTc) * 961 + Arrays.hashCode(tcBandwidth) * 31 + Arrays.hashCode(tsa);
    }

    @Override
    public String toString() {
        return "DcbxEts[willing=" + willing + ", cbs=" + cbs + ", maxTcs=" + maxTcs + ", priorityToTc="
            + Arrays.toString(priorityToTc) + ", tcBandwidth=" + Arrays.toString(tcBandwidth) + ", tsa="
            + Arrays.toString(tsa) + "]";
    }
}
