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

    /** @param agingNanos an entry not refreshed for this long is forgotten; 0 = never */
    public FdbTable(long agingNanos) {
        this.agingNanos = agingNanos;
    }

    /** Learns or refreshes {@code mac} on {@code port}. */
    public void learn(long mac, int port, long now) {
        long[] e = entries.get(mac);
        if (e == null) {
            entries.put(mac, new long[] {port, now});
        } else {
            e[0] = port;
            e[1] = now;
        }
    }

    /** @return the port {@code mac} was learned on, or -1 if unknown or aged out */
    public int lookup(long mac, long now) {
        long[] e = entries.get(mac);
        if (e == null) {
            return -1;
        }
        if (agingNanos > 0 && now - e[1] >= agingNanos) {
            entries.remove(mac);
            return -1;
        }
        return (int) e[0];
    }

    /** Forgets everything learned on {@code port} (its link went down). */
    public void flushPort(int port) {
        entries.values().removeIf(e -> e[0] == port);
    }

    /** @return live entries as {mac, port}, for {@code show mac} */
    public List<long[]> entries(long now) {
        List<long[]> out = new ArrayList<>();
        Long2ObjectHashMap<long[]>.EntryIterator it = entries.entrySet().iterator();
        while (it.hasNext()) {
            it.next();
            long[] e = it.getValue();
            if (agingNanos == 0 || now - e[1] < agingNanos) {
                out.add(new long[] {it.getLongKey(), e[0]});
            }
        }
        return out;
    }
}
