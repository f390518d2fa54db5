package io.rocelab.sw.egress;

import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.sw.config.Color;
import io.rocelab.sw.config.WredProfile;

/**
 * WRED/ECN decided at dequeue, from the depth the departing packet leaves behind it (as the ns-3
 * RDMA switch and DCQCN's switch side do: the mark reaches the receiver one queue earlier than if
 * it were decided at enqueue). Follows SONiC {@code WRED_PROFILE}: an ECT packet that is hit is
 * marked CE when the {@code ecn} mode covers its colour; otherwise it is dropped when
 * {@code wred_<colour>_enable} is set, and passes untouched when it is not. Each colour meets its
 * own thresholds ({@link Color}).
 */
public final class Wred {
    /** What happens to one packet. */
    public enum Verdict { PASS, MARK, DROP }

    private final WredProfile profile;
    private final SplitMix64 random;

    /**
     * @param profile the profile
     * @param seed    seed of this queue's generator (reproducible runs)
     */
    public Wred(WredProfile profile, long seed) {
        this.profile = profile;
        this.random = new SplitMix64(seed);
    }

    /**
     * @param depthBytes queue depth at dequeue
     * @param ecn        the packet's ECN codepoint (0 = Not-ECT, 3 = CE already, -1 = not IP)
     * @return the verdict for a green packet
     */
    public Verdict decide(long depthBytes, int ecn) {
        return decide(depthBytes, ecn, Color.GREEN);
    }

    /**
     * @param depthBytes queue depth at dequeue
     * @param ecn        the packet's ECN codepoint (0 = Not-ECT, 3 = CE already, -1 = not IP)
     * @param color      the packet's {@link Color}
     * @return the verdict
     */
    public Verdict decide(long depthBytes, int ecn, int color) {
        WredProfile.ColorRule rule = profile.rule(color);
        double p = rule.probability(depthBytes);
        if (p <= 0 || !random.nextBoolean(p)) {
            return Verdict.PASS;
        }
        boolean ect = ecn == 1 || ecn == 2 || ecn == 3;
        if (ect && rule.ecn()) {
            return Verdict.MARK;
        }
        return rule.dropEnabled() ? Verdict.DROP : Verdict.PASS;
    }

    public WredProfile profile() {
        return profile;
    }
}
