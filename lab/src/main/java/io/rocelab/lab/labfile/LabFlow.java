package io.rocelab.lab.labfile;

import io.rocelab.topology.workload.Flow;

/**
 * One flow of a lab, an entry of {@code flows:} expanded over its sources, built as what runs it
 * takes, with where the entry is written: an RDMA flow is the workload engine's {@link Flow} (or,
 * from an {@code rxe-vm} host, perftest's in the VM, {@link Rdma}); a {@code verb: tcp} flow is
 * iperf3's ({@link Tcp}).
 */
public interface LabFlow {
    /** @return the unique flow name ({@code incast-h3}: the entry's name and the source when the entry has
     *          several sources, else the entry's name; {@code h3-h0} by default) */
    String name();

    /** @return the entry's name, which its flows share (the flow's name when the entry has none) */
    String group();

    String source();

    String destination();

    /** @return where the entry is */
    Loc loc();

    /** @return the entry's key path ({@code flows[2]}) */
    String path();

    /**
     * An RDMA flow: the workload engine runs it on the soft NICs, or, from an {@code rxe-vm} host,
     * perftest in the VM ({@code ib_<verb>_bw} with the flow's size and messages).
     *
     * @param flow  the flow
     * @param group the entry's name
     * @param loc   where the entry is
     * @param path  the entry's key path
     */
    record Rdma(Flow flow, String group, Loc loc, String path) implements LabFlow {
        @Override
        public String name() {
            return flow.name();
        }

        @Override
        public String source() {
            return flow.source();
        }

        @Override
        public String destination() {
            return flow.destination();
        }
    }

    /**
     * A TCP flow between linux hosts ({@code verb: tcp}, netns mode): iperf3 runs it.
     *
     * @param name              unique flow name
     * @param group             the entry's name
     * @param source            the iperf3 client's host
     * @param destination       the iperf3 server's host
     * @param startNanos        start time, {@link Long#MAX_VALUE} to wait for a {@code flow-start} event
     * @param stopNanos         stop time, {@link Long#MAX_VALUE} for none
     * @param durationNanos     how long it runs (whole seconds, iperf3 {@code -t}), 0 for until its stop or
     *                          the run's end
     * @param streams           parallel streams ({@code -P})
     * @param rateBitsPerSecond rate cap ({@code -b}), 0 for none
     * @param loc               where the entry is
     * @param path              the entry's key path
     */
    record Tcp(String name, String group, String source, String destination, long startNanos, long stopNanos,
               long durationNanos, int streams, long rateBitsPerSecond, Loc loc, String path) implements LabFlow {
    }
}
