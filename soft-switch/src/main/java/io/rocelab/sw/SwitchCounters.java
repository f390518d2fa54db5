package io.rocelab.sw;

import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.stats.FdbCounters;
import io.rocelab.sw.stats.PortCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * The switch's counters as they were at one instant of its owner thread: per-port counters and
 * the PFC watchdog's per-queue state. Immutable once taken, so any thread (a CLI printing
 * {@code show pfc counters} while traffic runs) may read it; counters of one snapshot are
 * mutually consistent, as SONiC's COUNTERS_DB is per poll.
 *
 * @param takenAtNanos the switch clock when the copy was made
 * @param portNames    port names, by index
 * @param portsUp      whether each port's link is up (attached and up), by index
 * @param ports        copies of the port counters, by index
 * @param watches      copies of the watched queues
 * @param fdb          the FDB's occupancy and refusals
 */
public record SwitchCounters(long takenAtNanos, List<String> portNames, List<Boolean> portsUp,
                             List<PortCounters> ports, List<QueueWatch> watches, FdbCounters fdb) {

    /**
     * The counts since {@code baseline}, an earlier snapshot of the same switch: what SONiC's
     * {@code show} commands print after {@code sonic-clear counters}. Link states, the watchdog's
     * state and the FDB's occupancy are as now.
     */
    public SwitchCounters since(SwitchCounters baseline) {
        if (baseline.ports.size() != ports.size() || baseline.watches.size() != watches.size()) {
            throw new IllegalArgumentException("the baseline is not a snapshot of the same switch");
        }
        List<PortCounters> p = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            p.add(ports.get(i).minus(baseline.ports.get(i)));
        }
        List<QueueWatch> w = new ArrayList<>();
        for (int i = 0; i < watches.size(); i++) {
            w.add(watches.get(i).minus(baseline.watches.get(i)));
        }
        FdbCounters f = new FdbCounters(fdb.entries(), fdb.capacity(), fdb.learnRefused() - baseline.fdb.learnRefused(),
            fdb.agedOut() - baseline.fdb.agedOut());
        return new SwitchCounters(takenAtNanos, portNames, portsUp, List.copyOf(p), List.copyOf(w), f);
    }
}
