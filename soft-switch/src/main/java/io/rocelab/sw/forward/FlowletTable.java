package io.rocelab.sw.forward;

/**
 * Flowlet switching (Kandula et al., "Dynamic load balancing without packet reordering", and
 * CONGA): a flow keeps its member while its packets come closer together than the timeout; after
 * a longer gap the packets in flight have drained, so the flow may move to the best member without
 * reordering. Which member is best is the {@link MemberChooser}'s: the shortest queue (rocelab's
 * {@code SWITCH|switch flowlet_timeout}) or the best quality band (SAI's
 * {@code SAI_ARS_MODE_FLOWLET_QUALITY}, {@link PortQuality}). A fixed-size direct-mapped table, as
 * in hardware ({@code SAI_ARS_ATTR_MAX_FLOWS}): a colliding flow simply takes over the slot. Owner
 * thread only.
 */
public final class FlowletTable {
    private static final int DEFAULT_SIZE = 4096;
    private final long timeoutNanos;
    private final int mask;
    private final long[] keys;
    private final long[] lastSeen;
    private final int[] members;
    private final boolean[] used;
    private final MemberChooser chooser;
    private final PathChanges changes;
    private long moves;

    /** A table of 4096 flows whose flowlets go to the member with the fewest queued bytes. @param timeoutNanos the flowlet gap */
    public FlowletTable(long timeoutNanos) {
        this(timeoutNanos, DEFAULT_SIZE, null, null);
    }

    /**
     * @param timeoutNanos the flowlet gap
     * @param maxFlows     flows the table holds at least (rounded up to a power of two)
     * @param chooser      the best member for a new flowlet; null: the fewest queued bytes
     * @param changes      where moves are counted, or null
     */
    FlowletTable(long timeoutNanos, int maxFlows, MemberChooser chooser, PathChanges changes) {
        this.timeoutNanos = timeoutNanos;
        int size = Integer.highestOneBit(Math.max(1, maxFlows - 1)) << 1;
        this.mask = size - 1;
        this.keys = new long[size];
        this.lastSeen = new long[size];
        this.members = new int[size];
        this.used = new boolean[size];
        this.chooser = chooser;
        this.changes = changes;
    }

    /**
     * @return the member for this packet of flow {@code hash} in {@code group}, or -1 if all are down
     */
    public int select(long hash, EcmpGroup group, PortView view, long now) {
        int slot = (int) (hash & mask);
        boolean known = used[slot] && keys[slot] == hash;
        int member;
        if (known && now - lastSeen[slot] < timeoutNanos && members[slot] >= 0 && members[slot] < group.size()
                && view.isUp(group.port(members[slot]))) {
            member = members[slot];
        } else if (known) {
            // (a member index of a group the control plane has since replaced is simply re-chosen)
            member = chooser == null ? group.leastLoaded(hash, view) : chooser.best(group, hash, now);
            if (member != members[slot]) {
                moves++;
                if (changes != null && member >= 0) {
                    changes.changed(group, member);
                }
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
