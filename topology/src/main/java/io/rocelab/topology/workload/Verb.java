package io.rocelab.topology.workload;

/**
 * What a flow's messages are.
 *
 * <ul>
 *   <li>{@link #WRITE}: RC RDMA WRITE from the source into the destination's memory;</li>
 *   <li>{@link #READ}: RC RDMA READ: the source reads from the destination's memory (the data
 *       crosses the fabric from the destination to the source);</li>
 *   <li>{@link #SEND}: RC SEND, each consuming a receive work request the destination posted;</li>
 *   <li>{@link #UD_SEND}: UD SEND datagrams of at most the path MTU; a message longer than that is
 *       several datagrams. Unacknowledged: a datagram the destination had no receive for is lost.</li>
 * </ul>
 */
public enum Verb {
    WRITE, READ, SEND, UD_SEND;

    /** @return whether the destination must post receive work requests for it */
    public boolean needsReceives() {
        return this == SEND || this == UD_SEND;
    }

    /** @return the verb for its name, case-insensitive, {@code -} taken as {@code _} ("ud-send") */
    public static Verb parse(String name) {
        String n = name.trim().replace('-', '_').toUpperCase(java.util.Locale.ROOT);
        for (Verb v : values()) {
            if (v.name().equals(n)) {
                return v;
            }
        }
        throw new IllegalArgumentException("verb must be write, read, send or ud_send, not '" + name + "'");
    }
}
