package io.rocelab.sw.forward;

/**
 * Flowlet switching (Kandula et al., "Dynamic load balancing without packet reordering", and
 * CONGA): a flow keeps its member while its packets come closer together than the timeout; after
 * a longer gap the packets in flight have drained, so the flow may move to the least-loaded member
 * without reordering. A fixed-size direct-mapped table, as in hardware: a colliding flow simply
 * takes over the slot. Owner thread only.
 */
public final class FlowletTable {
    private static final int SIZE = 4096;
    private final long timeoutNanos;
    private final long[] keys = new long[SIZE];
    private final long[] lastSeen = new long[SIZE];
    private final int[] members = new int[SIZE];
    private final boolean[] used = new boolean[SIZE];
    private long moves;

    /** @param timeoutNanos the flowlet gap */
    public FlowletTable(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * @return the member for this packet of flow {@code hash} in {@code group}, or -1 if all are down
     */
    public int select(long hash, EcmpGroup group, PortView view, long now) {
        int slot = (int) (hash & (SIZE - 1));
        boolean known = used[slot] && keys[slot] == hash;
        int member;
        if (known && now - lastSeen[slot] < timeoutNanos && members[slot] >= 0 && members[slot] < group.size()
                && view.isUp(group.port(members[slot]))) {
            member = members[slot];
        } else if (known) {
            // (a member index of a group the control plane has since replaced is simply re-chosen)
            member = group.leastLoaded(hash, view);
            if (member != members[slot]) {
                moves++;
            }
        } else {
            member = group.select(hash, view);
        }
        used[slot] = true;
        keys[slot] = hash;
        lastSeen[slot] = now;
        members[slot] = member;
        return member;
    }

    /** @return how many times a flow changed member after a gap */
    public long moves() {
        return moves;
    }
}
