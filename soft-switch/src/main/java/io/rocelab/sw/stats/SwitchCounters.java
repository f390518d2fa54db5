package io.rocelab.sw.stats;

import io.rocelab.sw.pfcwd.QueueWatch;
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
}
