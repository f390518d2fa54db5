package io.rocelab.topology.timeline;

import java.util.Objects;

/**
 * An action at a time.
 *
 * @param atNanos when, from the start of the workload (the timeline's time 0), {@code >= 0}
 * @param action  what
 */
public record Event(long atNanos, Action action) {
    public Event {
        if (atNanos < 0) {
            throw new IllegalArgumentException("an event's time must be >= 0 ns, not " + atNanos);
        }
        Objects.requireNonNull(action, "action");
    }

    /** @return {@code "t=500.000 us: link leaf0--spine1 down"} */
    public String describe() {
        return Timeline.stamp(atNanos) + ": " + action.describe();
    }
}
