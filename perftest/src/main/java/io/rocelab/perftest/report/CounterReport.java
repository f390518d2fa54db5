package io.rocelab.perftest.report;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * {@code -W, --report-counters=<list>}: the change of device counters, as perftest's
 * {@code perftest_counters.c} reports it. Each name is a file under the port's sysfs directory,
 * {@code /sys/class/infiniband/DEV/ports/PORT/} ({@code hw_counters/out_of_buffer},
 * {@code counters/port_xmit_data}); they are read once when the device is set up and again after
 * every result line, which is followed by one {@code \tNAME=CHANGE} line per counter, in the order
 * given, and an empty line. The change is since the previous read, so with {@code -a} each size
 * shows its own.
 */
public final class CounterReport {
    private final List<String> names;
    private final Function<String, OptionalLong> reader;
    private final long[] last;

    private CounterReport(List<String> names, Function<String, OptionalLong> reader, long[] first) {
        this.names = names;
        this.reader = reader;
        this.last = first;
    }

    /**
     * Opens the counters and reads their first values, as perftest's {@code counters_open} does
     * when it sets up the exchange.
     *
     * @param names  the counters, as given to {@code -W}
     * @param reader a counter's current value by name, or empty if the device has no such counter
     * @return the report, or null if a counter does not exist (perftest then says
     *         "Unable to access performance counters" and stops)
     */
    public static CounterReport open(List<String> names, Function<String, OptionalLong> reader) {
        Objects.requireNonNull(reader, "reader");
        List<String> copy = List.copyOf(names);
        long[] first = new long[copy.size()];
        for (int i = 0; i < first.length; i++) {
            OptionalLong v = reader.apply(copy.get(i));
            if (v.isEmpty()) {
                return null;
            }
            first[i] = v.getAsLong();
        }
        return new CounterReport(copy, reader, first);
    }

    /** Reads every counter again and renders the change since the last read ({@code counters_print}). */
    public String render() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < last.length; i++) {
            long now = reader.apply(names.get(i)).orElse(last[i]);
            sb.append('\t').append(names.get(i)).append('=').append(Long.toUnsignedString(now - last[i])).append('\n');
            last[i] = now;
        }
        return sb.append('\n').toString();
    }
}
