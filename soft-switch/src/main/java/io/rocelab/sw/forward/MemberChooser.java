package io.rocelab.sw.forward;

/** Which live member of a group is the best now: the flowlet table asks it when a flowlet starts. */
@FunctionalInterface
interface MemberChooser {
    /**
     * @param tieBreak where among the live members to start looking: the first of equally good members wins
     * @return the best live member, or -1 if all are down
     */
    int best(EcmpGroup group, long tieBreak, long now);
}
