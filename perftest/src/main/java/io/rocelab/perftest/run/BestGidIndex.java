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
 * {@code --ipv6} and index 0, the link-local GID, with it.
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
            }
            // else perftest compares the entries' RoCE versions: all RoCEv2 here, so no change
        }
        return best;
    }
}
