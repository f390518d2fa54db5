package io.rocelab.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocelab.perftest.oob.Gid;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * perftest 4.5's choice of GID without {@code -x} ({@code get_best_gid_index}): from index 0 it
 * moves to a later entry only when that one is of the wanted family (IPv4-mapped, or with
 * {@code --ipv6} IPv6) and the current one is not.
 */
class BestGidIndexTest {
    private static List<Gid> table(String... addresses) throws Exception {
        List<Gid> t = new ArrayList<>();
        for (String a : addresses) {
            t.add(Gid.of(InetAddress.getByName(a)));
        }
        return t;
    }

    @Test
    void onRxesTableItIsTheIpv4GidAndWithIpv6TheLinkLocalOne() throws Exception {
        // rxe0 in the interop VM: gid-index 4 = 1, gid-index 6 = 2
        List<Gid> rxe = table("fe80::5054:ff:fe77:1", "10.77.0.1", "fd77::1");
        assertEquals(1, BestGidIndex.of(rxe, false));
        assertEquals(0, BestGidIndex.of(rxe, true));
    }

    @Test
    void aLaterEntryWinsOnlyByItsFamily() throws Exception {
        List<Gid> ipv4First = table("10.0.0.1", "fe80::1", "fd00::1", "10.0.0.2");
        assertEquals(0, BestGidIndex.of(ipv4First, false));
        assertEquals(1, BestGidIndex.of(ipv4First, true));
        List<Gid> ipv6Only = table("fe80::1", "fd00::1");
        assertEquals(0, BestGidIndex.of(ipv6Only, false));
        assertEquals(0, BestGidIndex.of(ipv6Only, true));
        assertEquals(0, BestGidIndex.of(table("10.0.0.1"), true));
    }

    @Test
    void onAConnectXsTableRoceV2WinsOverRoceV1() throws Exception {
        // mlx5: each address v1 then v2 (show_gids: 0 fe80 v1, 1 fe80 v2, 2 IPv4 v1, 3 IPv4 v2, ...)
        List<Gid> cx = table("fe80::5054:ff:fe77:1", "fe80::5054:ff:fe77:1", "10.77.0.1", "10.77.0.1", "fd77::1",
                "fd77::1");
        List<Boolean> v2 = List.of(false, true, false, true, false, true);
        assertEquals(3, BestGidIndex.of(cx, v2, false));
        assertEquals(1, BestGidIndex.of(cx, v2, true));
        // a table of v1 GIDs alone keeps the family rule
        assertEquals(2, BestGidIndex.of(cx, List.of(false, false, false, false, false, false), false));
    }
}
