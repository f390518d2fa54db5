package io.rocelab.sw.lag;

import io.rocelab.sw.config.PortChannelConfig;

/**
 * One port channel at run time: its member ports, which of them collect (take frames in) and
 * distribute (carry frames out), and the distributing ones in an array, so that picking a member
 * for a flow is one array read. The group is up while it is admin up and at least
 * {@code min_links} members distribute. Owner thread only.
 */
public final class LagGroup {
    private final PortChannelConfig config;
    private final int iface;
    private final int[] members;
    private final boolean[] collecting;
    private final boolean[] distributing;
    private final int[] live;
    private int liveCount;

    /**
     * @param config  the port channel
     * @param iface   its interface number (after the switch's ports)
     * @param members its members' port numbers, in the configured order
     */
    public LagGroup(PortChannelConfig config, int iface, int[] members) {
        this.config = config;
        this.iface = iface;
        this.members = members.clone();
        this.collecting = new boolean[members.length];
        this.distributing = new boolean[members.length];
        this.live = new int[members.length];
    }

    public PortChannelConfig config() {
        return config;
    }

    public String name() {
        return config.name();
    }

    /** @return the interface number a route, the FDB and flooding know the group by */
    public int iface() {
        return iface;
    }

    /** @return the members' port numbers */
    public int[] members() {
        return members.clone();
    }

    /** @return the index of {@code port} among the members, or -1 */
    public int memberIndex(int port) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == port) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Sets what a member may do: take frames in ({@code collect}) and send frames out ({@code distribute}).
     *
     * @return whether the group's up state changed
     */
    public boolean set(int port, boolean collect, boolean distribute) {
        int m = memberIndex(port);
        boolean wasUp = isUp();
        collecting[m] = collect;
        distributing[m] = distribute;
        liveCount = 0;
        for (int i = 0; i < members.length; i++) {
            if (distributing[i]) {
                live[liveCount++] = members[i];
            }
        }
        return wasUp != isUp();
    }

    /** @return whether frames received on {@code port} are taken in */
    public boolean collecting(int port) {
        int m = memberIndex(port);
        return m >= 0 && collecting[m] && config.adminUp();
    }

    /** @return whether {@code port} carries the group's frames out */
    public boolean distributing(int port) {
        int m = memberIndex(port);
        return m >= 0 && distributing[m];
    }

    /** @return members distributing now */
    public int distributingCount() {
        return liveCount;
    }

    /** @return admin up with at least {@code min_links} members distributing */
    public boolean isUp() {
        return config.adminUp() && liveCount >= config.minLinks() && liveCount > 0;
    }

    /**
     * The member for a flow: its home member ({@code hash} modulo the members) while that one
     * distributes; else one of the distributing members, by the rest of the hash. So a member going
     * down moves only its own flows (the others keep their member and their order, as an ASIC's
     * resilient LAG hashing does), and its flows come home when it is back.
     *
     * @param hash the frame's flow hash (already remixed for the LAG)
     * @return the member port for it, or -1 if the group is down
     */
    public int select(long hash) {
        if (!isUp()) {
            return -1;
        }
        int home = (int) Long.remainderUnsigned(hash, members.length);
        if (distributing[home]) {
            return members[home];
        }
        return live[(int) Long.remainderUnsigned(Long.divideUnsigned(hash, members.length), liveCount)];
    }
}
