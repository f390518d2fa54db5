package io.rocelab.sw.forward;

import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The L2 forwarding database: source MACs learned per port, aged out after the configured time
 * (SONiC {@code fdb_aging_time}, IEEE 802.1Q 8.8.3). Ageing is checked on lookup, so an aged entry
 * is never used and no timer is needed. Owner thread only.
 */
public final class FdbTable {
    private final long agingNanos;
    private final Long2ObjectHashMap<long[]> entries = new Long2ObjectHashMap<>();
    /**
     * Per ingress port, the entry of the last source MAC learned there: a host sends many frames in
     * a row, so refreshing it needs no hash lookup. Cleared whenever an entry is removed.
     */
    private long[] cachedMac = new long[0];
    private long[][] cachedEntry = new long[0][];

    /** @param agingNanos an entry not refreshed for this long is forgotten; 0 = never */
    public FdbTable(long agingNanos) {
        this.agingNanos = agingNanos;
    }

    /** Learns or refreshes {@code mac} on {@code port}. */
    public void learn(long mac, int port, long now) {
        if (port < cachedEntry.length) {
            long[] c = cachedEntry[port];
            if (c != null && cachedMac[port] == mac) {
                c[0] = port;
                c[1] = now;
                return;
            }
        } else {
            cachedMac = java.util.Arrays.copyOf(cachedMac, port + 1);
            cachedEntry = java.util.Arrays.copyOf(cachedEntry, port + 1);
        }
        long[] e = entries.get(mac);
        if (e == null) {
            e = new long[] {port, now};
            entries.put(mac, e);
        } else {
            e[0] = port;
            e[1] = now;
        }
        cachedMac[port] = mac;
        cachedEntry[port] = e;
    }

    private void clearCache() {
        java.util.Arrays.fill(cachedEntry, null);
    }

    /** @return the port {@code mac} was learned on, or -1 if unknown or aged out */
    public int lookup(long mac, long now) {
        long[] e = entries.get(mac);
        if (e == null) {
            return -1;
        }
        if (agingNanos > 0 && now - e[1] >= agingNanos) {
            entries.remove(mac);
            clearCache();
            return -1;
        }
        return (int) e[0];
    }

    /** Forgets everything learned on {@code port} (its link went down). */
    public void flushPort(int port) {
        entries.values().removeIf(e -> e[0] == port);
        clearCache();
    }

    /**
     * @return live entries as {mac, port, vid}, for {@code show mac} (vid 0: learned on a
     *         VLAN-unaware port)
     */
    public List<long[]> entries(long now) {
        List<long[]> out = new ArrayList<>();
        Long2ObjectHashMap<long[]>.EntryIterator it = entries.entrySet().iterator();
        while (it.hasNext()) {
            it.next();
            long[] e = it.getValue();
            if (agingNanos == 0 || now - e[1] < agingNanos) {
                long key = it.getLongKey();
                out.add(new long[] {key & 0xFFFF_FFFF_FFFFL, e[0], key >>> 48});
            }
        }
        return out;
    }
}
