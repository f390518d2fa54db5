package io.rocelab.topology.timeline;

import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.workload.Workload;
import java.util.Objects;

/**
 * A host's NIC starts ({@code on}) or stops a PFC storm on a priority: it pauses its link partner's
 * priority with the longest pause time and refreshes it before it runs out
 * ({@code SoftNic.startPfcStorm}), as a stuck receiver does; stopping lets the last pause run out.
 *
 * @param host     the rogue host
 * @param priority the 802.1p priority paused, 0..7
 * @param on       start or stop
 */
public record PfcStorm(String host, int priority, boolean on) implements Action {
    public PfcStorm {
        Objects.requireNonNull(host, "host");
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("pfc storm: priority must be 0..7, not " + priority);
        }
    }

    @Override
    public String describe() {
        return "host " + host + (on ? " starts a PFC storm on priority " + priority : " stops its PFC storm");
    }

    @Override
    public String check(Fabric fabric, Workload workload) {
        fabric.nic(host);
        return null;
    }

    @Override
    public void apply(Fabric fabric, Workload workload) {
        if (on) {
            fabric.nic(host).startPfcStorm(priority);
        } else {
            fabric.nic(host).stopPfcStorm();
        }
    }
}
