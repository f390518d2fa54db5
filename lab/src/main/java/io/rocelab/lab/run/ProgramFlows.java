package io.rocelab.lab.run;

import io.rocelab.topology.workload.FlowProgress;
import io.rocelab.topology.workload.FlowResult;
import java.util.List;

/** Flows that real programs run beside the workload engine's (netns mode's iperf3). */
interface ProgramFlows extends AutoCloseable {
    /** None. */
    ProgramFlows NONE = new ProgramFlows() {
        @Override
        public FlowProgress progress(String flow) {
            return null;
        }

        @Override
        public List<FlowResult> results() {
            return List.of();
        }

        @Override
        public void close() {
        }
    };

    /** @return the live progress of {@code flow}, or null if it is not one of these */
    FlowProgress progress(String flow);

    /** @return what each did, once they are over (waits for them) */
    List<FlowResult> results();

    @Override
    void close();
}
