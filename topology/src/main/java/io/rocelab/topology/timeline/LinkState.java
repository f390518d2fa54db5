package io.rocelab.topology.timeline;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.workload.Workload;
import java.util.Objects;

/**
 * A link's cable pulled ({@code up == false}) or plugged back: frames in flight are dropped, the
 * switches' ECMP groups re-hash around a link that is down ({@code Fabric.setLinkUp}).
 *
 * @param link the link's name in the topology
 * @param up   its new state
 */
public record LinkState(String link, boolean up) implements Action {
    public LinkState {
        Objects.requireNonNull(link, "link");
    }

    @Override
    public String describe() {
        return "link " + link + (up ? " up" : " down");
    }

    @Override
    public String check(Fabric fabric, Workload workload) {
        fabric.link(link);
        return null;
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        fabric.setLinkUp(link, up);
    }
}
