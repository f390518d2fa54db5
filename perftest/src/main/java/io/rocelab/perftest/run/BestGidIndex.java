package io.rocelab.perftest.run;

import io.rocelab.perftest.oob.Gid;
import java.util.List;

/**
 * The GID index perftest 4.5 uses on an Ethernet port when {@code -x} is not given
 * ({@code get_best_gid_index} in perftest_communication.c): it walks the port's GID table from
 * index 0 and moves to a later entry only when that one is IPv4-mapped and the current one is
 * not (without {@code --ipv6}), or the reverse (with {@code --ipv6}), or when the later one is of
 * a better RoCE version. So {@code --ipv6} means "prefer an IPv6 GID", not "use this IPv6
 * address". On a table laid out as rxe's (0 link-local IPv6, 1 IPv4-mapped, 2 and on global
 * IPv6, every entry RoCEv2, so the versions never decide) that is index 1 without
 * {@code --ipv6} and index 0, the link-local GID, with it. On a ConnectX's table (each address
 * RoCEv1 then RoCEv2) the versions do decide, RoCEv2 being the better: index 3, the IPv4-mapped
 * RoCEv2 GID, without {@code --ipv6}, index 1 with it.
 */
public final class BestGidIndex {
    private BestGidIndex() {
    }

    /**
     * @param table      the port's GID table, index 0 first; every entry a RoCEv2 GID
     * @param preferIpv6 {@code --ipv6}
     * @return the index perftest picks
     */
    public static int of(List<Gid> table, boolean preferIpv6) {
        return of(table, java.util.Collections.nCopies(table.size(), true), preferIpv6);
    }

    /**
     * @param table      the port's GID table, index 0 first
     * @param roceV2     for each entry, whether it is RoCEv2 ({@code ibv_query_gid_type}); else RoCEv1
     * @param preferIpv6 {@code --ipv6}
     * @return the index perftest picks
     */
    public static int of(List<Gid> table, List<Boolean> roceV2, boolean preferIpv6) {
        if (table.size() != roceV2.size()) {
            throw new IllegalArgumentException("a type for each GID: " + table.size() + " GIDs, " + roceV2.size()
                    + " types");
        }
        if (table.isEmpty()) {
            throw new IllegalArgumentException("the GID table is empty");
        }
        int best = 0;
        for (int i = 1; i < table.size(); i++) {
            boolean current4 = table.get(best).isIpv4Mapped();
            boolean rival4 = table.get(i).isIpv4Mapped();
            if (rival4 && !current4 && !preferIpv6) {
                best = i;
            } else if (!rival4 && current4 && preferIpv6) {
                best = i;
            } else if (!roceV2.get(best) && roceV2.get(i)) {
                // perftest's roce_versions_sorted: RoCEv2 rates above RoCEv1
                best = i;
            }
        }
        return best;
    }
}
