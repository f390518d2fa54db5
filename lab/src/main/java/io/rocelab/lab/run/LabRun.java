package io.rocelab.lab.run;

import io.rocelab.topology.collective.CollectiveResult;
import io.rocelab.topology.workload.FlowResult;
import java.util.List;

/**
 * One finished run of a lab (one variant).
 *
 * @param data       what it measured
 * @param flows      the results of the file's flows
 * @param background the results of the background load's flows
 * @param applied    the timeline's events, as applied
 * @param events     scheduler events executed (virtual time), or -1 live
 * @param wallNanos  how long it took
 * @param capture    the pcapng written, or null
 * @param captured   frames in it
 * @param notes      lines about the run beside its data (netns: the tshark captures taken)
 * @param collectives the results of the file's collectives, in file order
 */
public record LabRun(RunData data, List<FlowResult> flows, List<FlowResult> background, List<String> applied,
                     long events, long wallNanos, java.nio.file.Path capture, long captured, List<String> notes,
                     List<CollectiveResult> collectives) {
    /** A run without collectives. */
    public LabRun(RunData data, List<FlowResult> flows, List<FlowResult> background, List<String> applied,
                  long events, long wallNanos, java.nio.file.Path capture, long captured, List<String> notes) {
        this(data, flows, background, applied, events, wallNanos, capture, captured, notes, List.of());
    }
}
