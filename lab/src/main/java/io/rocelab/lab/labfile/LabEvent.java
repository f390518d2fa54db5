package io.rocelab.lab.labfile;

import io.rocelab.topology.timeline.Action;
import io.rocelab.topology.timeline.Draining;
import io.rocelab.topology.timeline.Event;
import io.rocelab.topology.timeline.FlowControl;
import io.rocelab.topology.timeline.LinkFaults;
import io.rocelab.topology.timeline.LinkState;
import io.rocelab.topology.timeline.PfcStorm;
import io.rocelab.topology.timeline.SilentPort;
import io.rocelab.topology.timeline.SwitchPower;

/**
 * One event of a lab's timeline, as the topology's {@code Timeline} takes it, with where the file
 * writes it (an option that cuts the run short names the event it drops there).
 *
 * @param event the time and the action
 * @param loc   where the action is written
 * @param path  its key path ({@code events[2].link-down})
 */
public record LabEvent(Event event, Loc loc, String path) {
    /** @return when, from the start of the workload */
    public long atNanos() {
        return event.atNanos();
    }

    /** @return the event as the file writes it: "t=500us link-down leaf0:Ethernet8" */
    public String describe() {
        return "t=" + Quantity.formatNanos(event.atNanos()) + " " + written(event.action());
    }

    /** The action's key in a file ({@code events[].KEY}), its target and its settings. */
    private static String written(Action a) {
        if (a instanceof LinkState s) {
            return (s.up() ? "link-up " : "link-down ") + s.link();
        }
        if (a instanceof LinkFaults f) {
            return "link-faults " + f.link() + " loss " + f.faults().lossProbability() + " corrupt "
                + f.faults().corruptProbability() + " duplicate " + f.faults().duplicateProbability();
        }
        if (a instanceof PfcStorm p) {
            return (p.on() ? "pfc-storm " : "pfc-storm-stop ") + p.host() + " priority " + p.priority();
        }
        if (a instanceof Draining d) {
            return (d.on() ? "drain-start " : "drain-stop ") + d.host();
        }
        if (a instanceof FlowControl f) {
            return (f.run() ? "flow-start " : "flow-stop ") + f.flow();
        }
        if (a instanceof SwitchPower s) {
            return (s.on() ? "switch-up " : "switch-down ") + s.name();
        }
        if (a instanceof SilentPort s) {
            return (s.on() ? "port-silent " : "port-silent-stop ") + s.end();
        }
        throw new IllegalStateException("no key for " + a);
    }
}
