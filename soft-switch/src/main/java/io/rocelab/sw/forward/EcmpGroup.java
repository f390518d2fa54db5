package io.rocelab.sw.forward;

/**
 * The next hops of one route. Members whose link is down are skipped at once, so their flows
 * re-hash over the remaining members on the very next frame.
 *
 * <p>The live members are kept in an array, recomputed on the first lookup after
 * {@link #invalidate()} (the switch calls it on every link state change and port attach), not
 * scanned per frame.
 */
public final class EcmpGroup {
    /** {@link #single} found more than one live member: the flow hash picks one. */
    public static final int MANY = -2;
    private final int[] ports;
    private final long[] macs;
    private final int[] live;
    /** Live members in {@link #live}, or -1 until computed from the link state. */
    private int liveCount = -1;
    /** The group's load balancer, chosen on its first routed packet ({@link LoadBalancing#of}); owner thread. */
    LoadBalancer balancer;
    /** Packets or flowlets that left by another member than the one the hash or the flowlet had. */
    private long reassignments;

    /**
     * @param ports egress port of each member
     * @param macs  neighbour MAC of each member
     */
    public EcmpGroup(int[] ports, long[] macs) {
        this.ports = ports.clone();
        this.macs = macs.clone();
        this.live = new int[ports.length];
    }

    /** @return number of members, up or down */
    public int size() {
        return ports.length;
    }

    public int port(int member) {
        return ports[member];
    }

    public long mac(int member) {
        return macs[member];
    }

    /**
     * What a single live member makes of every hash, without the hash: a route with one next hop
     * (or one left up) needs no flow hash.
     *
     * @return the only live member, -1 if all are down, or {@link #MANY} if more than one is live
     */
    public int single(PortView view) {
        int n = liveCount >= 0 ? liveCount : liveMembers(view);
        return n == 1 ? live[0] : n == 0 ? -1 : MANY;
    }

    /**
     * @param hash flow hash
     * @param view link state
     * @return the member for this hash among the live ones, or -1 if all are down
     */
    public int select(long hash, PortView view) {
        int n = liveCount >= 0 ? liveCount : liveMembers(view);
        if (n == 0) {
            return -1;
        }
        return live[(int) Long.remainderUnsigned(hash, n)];
    }

    /**
     * @return the live member with the fewest queued bytes; ties broken by the hash so that equal
     *         flows do not all pile on the first member, or -1 if all are down
     */
    public int leastLoaded(long hash, PortView view) {
        int n = liveCount >= 0 ? liveCount : liveMembers(view);
        if (n == 0) {
            return -1;
        }
        int start = (int) Long.remainderUnsigned(hash, n);
        int best = -1;
        long bestLoad = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int m = live[(start + i) % n];
            long load = view.queuedBytes(ports[m]);
            if (load < bestLoad) {
                bestLoad = load;
                best = m;
            }
        }
        return best;
    }

    /** @return how many live members there are now */
    public int liveCount(PortView view) {
        return liveCount >= 0 ? liveCount : liveMembers(view);
    }

    /** @return the {@code i}th live member (0 &lt;= i &lt; {@link #liveCount}) */
    public int liveMember(int i) {
        return live[i];
    }

    /**
     * @return how often a flowlet (flowlet modes) or a packet (per-packet mode) of this group took another member
     *         than its flow had (SAI's {@code SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS})
     */
    public long reassignments() {
        return reassignments;
    }

    void reassigned() {
        reassignments++;
    }

    /** A member's link changed state (or a port was attached): recompute the live members. */
    public void invalidate() {
        liveCount = -1;
    }

    private int liveMembers(PortView view) {
        int n = 0;
        for (int m = 0; m < ports.length; m++) {
            if (view.isUp(ports[m])) {
                live[n++] = m;
            }
        }
        liveCount = n;
        return n;
    }
}
