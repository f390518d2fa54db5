package io.rocelab.topology.timeline;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.workload.Workload;
import java.util.Objects;

/**
 * A whole switch fails ({@code on == false}: power lost, a crash) or comes back: every cable of it goes
 * down at once, so the switch loses what it queued and learned (the egress queues and the FDB entries
 * of a port are flushed when its link drops) and its neighbours see link-down on every port to it
 * (their ECMP groups re-hash around it); coming back, every cable of it is up again, its tables empty
 * of what it had learned.
 *
 * @param name the switch
 * @param on   whether it runs
 */
public record SwitchPower(String name, boolean on) implements Action {
    public SwitchPower {
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String describe() {
        return "switch " + name + (on ? " comes back" : " fails (every cable of it down)");
    }

    @Override
    public String check(Fabric fabric, Workload workload) {
        fabric.softSwitch(name);
        return fabric.topology().links().stream().anyMatch(this::touches) ? null : "the switch has no cable";
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        for (Link l : fabric.topology().links()) {
            if (touches(l)) {
                fabric.setLinkUp(l.name(), on);
            }
        }
    }

    private boolean touches(Link l) {
        return l.a().node().equals(name) || l.b().node().equals(name);
    }
}
