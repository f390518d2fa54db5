package io.rocelab.sw.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The longest-prefix match against the definition: of the routes whose prefix covers the address, the longest. */
class RouteTableTest {
    private static EcmpGroup group(int port) {
        return new EcmpGroup(new int[] {port}, new long[] {0x020000000000L + port});
    }

    private static int mask(int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }

    @Test
    void theLongestCoveringPrefixWinsAndRemovalFallsBack() {
        RouteTable t = new RouteTable();
        EcmpGroup dflt = group(0);
        EcmpGroup net = group(1);
        EcmpGroup host = group(2);
        t.add(0, 0, dflt);
        t.add(0x0A000100, 24, net);
        t.add(0x0A000105, 32, host);
        assertSame(host, t.lookup(0x0A000105));
        assertSame(net, t.lookup(0x0A000106));
        assertSame(dflt, t.lookup(0x0B000001));
        t.remove(0x0A000105, 32);
        assertSame(net, t.lookup(0x0A000105));
        t.add(0x0A0001FF, 24, host); // the same /24 (host bits ignored): replaced
        assertSame(host, t.lookup(0x0A000105));
        assertEquals(2, t.routes().size(), "the /24 replaced, the /32 removed");
        t.remove(0, 0);
        assertNull(t.lookup(0x0B000001));
        assertSame(host, t.exact(0x0A000100, 24));
        assertNull(t.exact(0x0A000100, 25));
    }

    /** Random tables and addresses near their prefixes, adds and removes interleaved: the index answers as a scan. */
    @Property(tries = 300)
    void lookupIsTheLongestCoveringPrefix(@ForAll @Size(max = 40) List<@IntRange(min = 0, max = 32) Integer> lengths,
                                          @ForAll @Size(min = 40, max = 40) List<Integer> bits,
                                          @ForAll @Size(min = 20, max = 20) List<Integer> probes) {
        RouteTable t = new RouteTable();
        List<int[]> model = new ArrayList<>(); // prefix, length, port
        for (int i = 0; i < lengths.size(); i++) {
            int len = lengths.get(i);
            int prefix = (0x0A000000 | (bits.get(i) & 0x0000FFFF)) & mask(len);
            if (i % 7 == 6 && !model.isEmpty()) { // a withdrawal now and then
                int[] gone = model.remove(Math.floorMod(bits.get(i), model.size()));
                t.remove(gone[0], gone[1]);
            }
            final int l = len;
            model.removeIf(r -> r[1] == l && r[0] == prefix);
            model.add(new int[] {prefix, len, i});
            t.add(prefix, len, group(i));
        }
        for (int probe : probes) {
            int dst = 0x0A000000 | (probe & 0x0000FFFF);
            int[] best = null;
            for (int[] r : model) {
                if ((dst & mask(r[1])) == r[0] && (best == null || r[1] > best[1])) {
                    best = r;
                }
            }
            EcmpGroup g = t.lookup(dst);
            if (best == null) {
                assertNull(g);
            } else {
                assertEquals(best[2], g == null ? -1 : g.port(0), "route for " + Integer.toHexString(dst));
            }
        }
    }
}
