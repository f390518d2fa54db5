package io.rocelab.codec.ib;

/**
 * The transport service an opcode belongs to: the top three bits of the BTH opcode (IBA 9.2.1,
 * Table 38), plus the RoCEv2 congestion notification packet, which lives in the manufacturer
 * range.
 */
public enum Transport {
    RC, UC, RD, UD, CNP, UNKNOWN;

    /** The prefix used in opcode names, as Wireshark and rdma-core print them. */
    public String prefix() {
        return name();
    }
}
