package io.rocelab.lab.expect;

/** What a run's metrics are about. */
public enum Kind {
    /** A flow, by name ({@code incast-h3}). */
    FLOW("flow", "flows"),
    /** A switch port, {@code leaf0:Ethernet0}. */
    PORT("port", "ports"),
    /** A switch port's egress queue, {@code leaf0:Ethernet0:3}. */
    QUEUE("queue", "queues"),
    /** A host's NIC, by the host's name. */
    NIC("nic", "nics"),
    /** A switch, by name. */
    SWITCH("switch", "switches"),
    /** A collective ({@code collectives:}), by name. */
    COLLECTIVE("collective", "collectives");

    private final String one;
    private final String many;

    Kind(String one, String many) {
        this.one = one;
        this.many = many;
    }

    /** @return {@code flow}: the function that picks one, and (for nic, switch) the fabric-wide sum */
    public String one() {
        return one;
    }

    /** @return {@code flows}: the collection */
    public String many() {
        return many;
    }
}
