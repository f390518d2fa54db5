package io.rocelab.topology.timeline;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.workload.Workload;
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

    @Override
    public String check(Fabric fabric, Workload workload) {
        if (workload == null) {
            return "no workload to tell";
        }
        workload.progress(flow);
        return null;
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        if (run) {
            workload.startFlow(flow);
        } else {
            workload.stopFlow(flow);
        }
    }
}
