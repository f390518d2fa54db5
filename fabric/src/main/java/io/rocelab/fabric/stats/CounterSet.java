package io.rocelab.fabric.stats;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A fixed set of named {@code long} counters, one per constant of an enum, as Aeron does.
 *
 * <p>Why: per-port and per-link counters are bumped on the data path by the one thread that owns the
 * port, and read by monitors, reports and tests on other threads. A release store from the single
 * writer is as cheap as a plain store on x86 and makes the values safely readable elsewhere, without
 * the lock prefix an atomic add would cost. Only the owner thread may call the {@code increment}
 * and {@code add} methods.
 *
 * @param <E> the enum naming the counters
 */
public final class CounterSet<E extends Enum<E>> {

    private final Class<E> type;
    private final E[] names;
    private final AtomicLongArray values;

    /**
     * @param type the enum naming the counters
     */
    public CounterSet(Class<E> type) {
        this.type = Objects.requireNonNull(type, "type");
        this.names = type.getEnumConstants();
        this.values = new AtomicLongArray(names.length);
    }

    /**
     * Adds one; owner thread only.
     *
     * @param counter which counter
     */
    public void increment(E counter) {
        add(counter, 1L);
    }

    /**
     * Adds {@code delta}; owner thread only.
     *
     * @param counter which counter
     * @param delta   how much
     */
    public void add(E counter, long delta) {
        final int i = counter.ordinal();
        values.setRelease(i, values.getPlain(i) + delta);
    }

    /**
     * @param counter which counter
     * @return its current value; from any thread
     */
    public long get(E counter) {
        return values.getAcquire(counter.ordinal());
    }

    /**
     * @return a copy of every counter, in declaration order
     */
    public Map<E, Long> snapshot() {
        final Map<E, Long> copy = new EnumMap<>(type);
        for (E name : names) {
            copy.put(name, get(name));
        }
        return copy;
    }

    /** Lists the counters that are not zero, e.g. {@code {FRAMES_SENT=10, BYTES_SENT=15000}}. */
    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("{");
        for (E name : names) {
            final long value = get(name);
            if (value != 0) {
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append(name).append('=').append(value);
            }
        }
        return sb.append('}').toString();
    }
}
