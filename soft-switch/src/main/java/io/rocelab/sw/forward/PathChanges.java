package io.rocelab.sw.forward;

import java.util.Arrays;

/**
 * A switch's count of path changes: a flowlet that left by another member than its flow had, or a
 * packet sprayed to another member than its hash's (SAI's {@code
 * SAI_NEXT_HOP_GROUP_ATTR_ARS_NEXT_HOP_REASSIGNMENTS}, counted here per switch, per group and per
 * interface the traffic was moved onto). Owner thread only.
 */
public final class PathChanges {
    private long total;
    private long[] byInterface = new long[0];

    /** A flowlet or packet of {@code group} took {@code member} instead of the member its flow had. */
    void changed(EcmpGroup group, int member) {
        total++;
        group.reassigned();
        int iface = group.port(member);
        if (iface >= byInterface.length) {
            byInterface = Arrays.copyOf(byInterface, Math.max(iface + 1, byInterface.length * 2));
        }
        byInterface[iface]++;
    }

    /** @return path changes on the whole switch */
    public long total() {
        return total;
    }

    /** @return path changes that moved traffic onto interface {@code iface} (a port, or a port channel) */
    public long onto(int iface) {
        return iface < byInterface.length ? byInterface[iface] : 0;
    }
}
