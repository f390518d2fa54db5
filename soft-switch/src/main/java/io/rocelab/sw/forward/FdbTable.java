package io.rocelab.sw.forward;

import io.rocelab.fabric.time.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The L2 forwarding database: source MACs learned per port, aged out after the configured time
 * (SONiC {@code fdb_aging_time}, IEEE 802.1Q 8.8.3), at most {@code capacity} entries, as an ASIC's
 * L2 table holds a fixed number ({@code SAI_SWITCH_ATTR_FDB_TABLE_SIZE}). A lookup never uses an
 * aged entry; the memory of aged entries is taken back by a sweep on the switch's scheduler, run
 * every half ageing time while the table holds anything, so an entry is gone at most 1.5 ageing
 * times after its MAC was last seen, as a hardware ageing pass does it. When the table is full, a
 * new MAC is not learned (its frames are flooded as to an unknown destination, IEEE 802.1Q 8.8.3)
 * and the refusal is counted: MAC flooding fills the table, never the heap. Owner thread only.
 */
public final class FdbTable {
    private final long agingNanos;
    private final int capacity;
    private final Scheduler scheduler;
    private final Long2ObjectHashMap<long[]> entries = new Long2ObjectHashMap<>();
    /**
     * Per ingress port, the entry of the last source MAC learned there: a host sends many frames in
     * a row, so refreshing it needs no hash lookup. Cleared whenever an entry is removed.
     */
    private long[] cachedMac = new long[0];
    private long[][] cachedEntry = new long[0][];
    private boolean sweepPending;
    private long learnRefused;
    private long agedOut;

    /**
     * A table whose aged entries are only dropped when looked up or swept by {@link #sweep}.
     *
     * @param agingNanos an entry not refreshed for this long is forgotten; 0 = never
     */
    public FdbTable(long agingNanos, int capacity) {
        this(agingNanos, capacity, null);
    }

    /**
     * @param agingNanos an entry not refreshed for this long is forgotten; 0 = never
     * @param capacity   entries the table holds at most
     * @param scheduler  where aged entries are swept in the background; null for no background sweep
     */
    public FdbTable(long agingNanos, int capacity, Scheduler scheduler) {
        if (agingNanos < 0) {
            throw new IllegalArgumentException("agingNanos must be >= 0: " + agingNanos);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        this.agingNanos = agingNanos;
        this.capacity = capacity;
        this.scheduler = scheduler;
    }

    /**
     * Learns or refreshes {@code mac} on {@code port}; a new MAC is refused when the table is full.
     *
     * @return whether the MAC is new or moved to {@code port} (not a mere refresh, nor refused)
     */
    public boolean learn(long mac, int port, long now) {
        if (port < cachedEntry.length) {
            long[] c = cachedEntry[port];
            if (c != null && cachedMac[port] == mac) {
                c[0] = port;
                c[1] = now;
                return false;
            }
        } else {
            cachedMac = java.util.Arrays.copyOf(cachedMac, port + 1);
            cachedEntry = java.util.Arrays.copyOf(cachedEntry, port + 1);
        }
        long[] e = entries.get(mac);
        boolean changed;
        if (e == null) {
            if (entries.size() >= capacity) {
                learnRefused++;
                return false;
            }
            e = new long[] {port, now};
            entries.put(mac, e);
            armSweep();
            changed = true;
        } else {
            changed = e[0] != port || agingNanos > 0 && now - e[1] >= agingNanos;
            e[0] = port;
            e[1] = now;
        }
        cachedMac[port] = mac;
        cachedEntry[port] = e;
        return changed;
    }

    /** Moves everything learned on {@code from} to {@code to} (an MLAG port channel down: its MACs via the peer). */
    public void movePort(int from, int to) {
        for (long[] e : entries.values()) {
            if (e[0] == from) {
                e[0] = to;
            }
        }
        clearCache();
    }

    private void clearCache() {
        java.util.Arrays.fill(cachedEntry, null);
    }

    private void armSweep() {
        if (scheduler == null || agingNanos == 0 || sweepPending) {
            return;
        }
        sweepPending = true;
        scheduler.scheduleUncancellable(Math.max(1, agingNanos / 2), () -> {
            sweepPending = false;
            sweep(scheduler.nanoTime());
            if (!entries.isEmpty()) {
                armSweep();
            }
        });
    }

    /**
     * Forgets every entry aged at {@code now}.
     *
     * @return how many were forgotten
     */
    public int sweep(long now) {
        if (agingNanos == 0) {
            return 0;
        }
        int before = entries.size();
        entries.values().removeIf(e -> now - e[1] >= agingNanos);
        int removed = before - entries.size();
        if (removed > 0) {
            agedOut += removed;
            clearCache();
        }
        return removed;
    }

    /** @return the port {@code mac} was learned on, or -1 if unknown or aged out */
    public int lookup(long mac, long now) {
        long[] e = entries.get(mac);
        if (e == null) {
            return -1;
        }
        if (agingNanos > 0 && now - e[1] >= agingNanos) {
            entries.remove(mac);
            agedOut++;
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

    /** @return entries held, aged ones not yet swept included */
    public int size() {
        return entries.size();
    }

    /** @return entries the table holds at most */
    public int capacity() {
        return capacity;
    }

    /** @return new MACs not learned because the table was full */
    public long learnRefused() {
        return learnRefused;
    }

    /** @return entries forgotten because they aged */
    public long agedOut() {
        return agedOut;
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
