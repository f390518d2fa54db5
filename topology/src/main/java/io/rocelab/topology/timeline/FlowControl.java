package io.rocelab.topology.timeline;

import java.util.Objects;

/**
 * A flow starts ({@code run}; one given start {@code Long.MAX_VALUE} waits for this) or stops
 * posting ({@code Workload.startFlow}, {@code Workload.stopFlow}).
 *
 * @param flow the flow's name
 * @param run  start or stop
 */
public record FlowControl(String flow, boolean run) implements Action {
    public FlowControl {
        Objects.requireNonNull(flow, "flow");
    }

    @Override
    public String describe() {
        return "flow " + flow + (run ? " starts" : " stops");
    }
}
