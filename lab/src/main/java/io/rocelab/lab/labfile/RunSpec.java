package io.rocelab.lab.labfile;

import io.rocelab.topology.model.Topology;
import java.util.List;
import java.util.Set;

/**
 * One run of a lab: a variant of the file, checked and resolved (the fabric built as data, the
 * flows expanded over their sources). What the runner needs, nothing it must parse again.
 *
 * @param variant     the variant's name, or empty for a file without variants
 * @param durationNanos how long the run lasts (virtual or wall time)
 * @param seed        the seed of every random decision
 * @param modes       where it can run
 * @param topology    the fabric
 * @param qos         the QoS the file asked for
 * @param nics        the host NICs' settings
 * @param flows       the flows, one per source
 * @param background  Poisson load
 * @param events      the timeline, in file order
 * @param probes      what is sampled
 * @param capture     the capture, or null for none
 * @param linuxHosts  the hosts of kind {@code linux} (plain namespaces, netns mode)
 * @param rxeVms      the hosts of kind {@code rxe-vm} (rdma_rxe VMs, netns mode); every other host is a NIC
 * @param lldp        LLDP on every switch port and NIC port ({@code lldp: true})
 * @param collectives the collectives ({@code collectives:}), in file order
 */
public record RunSpec(String variant, long durationNanos, long seed, Set<Mode> modes, Topology topology, QosSpec qos,
                      NicSpec nics, List<LabFlow> flows, List<BackgroundSpec> background, List<LabEvent> events,
                      ProbeSpec probes, CaptureSpec capture, Set<String> linuxHosts,
                      Set<String> rxeVms, boolean lldp, List<CollectiveSpec> collectives) {
    public RunSpec {
        linuxHosts = Set.copyOf(linuxHosts);
        rxeVms = Set.copyOf(rxeVms);
        collectives = List.copyOf(collectives);
    }

    /** A run without collectives. */
    public RunSpec(String variant, long durationNanos, long seed, Set<Mode> modes, Topology topology, QosSpec qos,
                   NicSpec nics, List<LabFlow> flows, List<BackgroundSpec> background, List<LabEvent> events,
                   ProbeSpec probes, CaptureSpec capture, Set<String> linuxHosts, Set<String> rxeVms, boolean lldp) {
        this(variant, durationNanos, seed, modes, topology, qos, nics, flows, background, events, probes, capture,
            linuxHosts, rxeVms, lldp, List.of());
    }

    /** A run without LLDP (the lab file's {@code lldp} key absent or false). */
    public RunSpec(String variant, long durationNanos, long seed, Set<Mode> modes, Topology topology, QosSpec qos,
                   NicSpec nics, List<LabFlow> flows, List<BackgroundSpec> background, List<LabEvent> events,
                   ProbeSpec probes, CaptureSpec capture, Set<String> linuxHosts, Set<String> rxeVms) {
        this(variant, durationNanos, seed, modes, topology, qos, nics, flows, background, events, probes, capture,
            linuxHosts, rxeVms, false);
    }

    /** @return what host {@code name} is */
    public HostKind kind(String host) {
        return linuxHosts.contains(host) ? HostKind.LINUX : rxeVms.contains(host) ? HostKind.RXE_VM : HostKind.NIC;
    }

    /** @return the hosts with a soft NIC, in topology order */
    public List<String> nicHosts() {
        return topology.hosts().stream().map(h -> h.name()).filter(h -> !linuxHosts.contains(h) && !rxeVms.contains(h))
            .toList();
    }

    /** @return the RoCE queue (and priority) of the fabric's QoS, 3 without a profile */
    public int roceQueue() {
        return topology.qos() == null ? 3 : topology.qos().roceTc();
    }

    /** @return the same run for {@code nanos} (a default probe interval follows it) */
    public RunSpec withDuration(long nanos) {
        return new RunSpec(variant, nanos, seed, modes, topology, qos, nics, flows, background, events,
            probes.forDuration(nanos), capture, linuxHosts, rxeVms, lldp, collectives);
    }

    /** @return the same run with {@code newSeed} */
    public RunSpec withSeed(long newSeed) {
        return new RunSpec(variant, durationNanos, newSeed, modes, topology, qos, nics, flows, background, events,
            probes, capture, linuxHosts, rxeVms, lldp, collectives);
    }
}
