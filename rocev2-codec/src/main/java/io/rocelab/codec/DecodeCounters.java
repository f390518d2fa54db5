package io.rocelab.codec;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Drop counters by {@link DecodeError}, plus frames accepted. Safe to read from any thread
 * (a CLI or a stats reporter) while the owning event loop increments.
 */
public final class DecodeCounters {
    private static final DecodeError[] ERRORS = DecodeError.values();
    private final AtomicLongArray drops = new AtomicLongArray(ERRORS.length);
    private final AtomicLongArray accepted = new AtomicLongArray(1);

    public void drop(DecodeError reason) {
        drops.incrementAndGet(reason.ordinal());
    }

    public void accept() {
        accepted.incrementAndGet(0);
    }

    public long dropped(DecodeError reason) {
        return drops.get(reason.ordinal());
    }

    public long accepted() {
        return accepted.get(0);
    }

    public long totalDropped() {
        long sum = 0;
        for (int i = 0; i < ERRORS.length; i++) {
            sum += drops.get(i);
        }
        return sum;
    }

    /** The non-zero drop counters. */
    public Map<DecodeError, Long> snapshot() {
        Map<DecodeError, Long> map = new EnumMap<>(DecodeError.class);
        for (DecodeError e : ERRORS) {
            long v = drops.get(e.ordinal());
            if (v != 0) {
                map.put(e, v);
            }
        }
        return map;
    }

    @Override
    public String toString() {
        return "accepted=" + accepted() + " dropped=" + snapshot();
    }
}
