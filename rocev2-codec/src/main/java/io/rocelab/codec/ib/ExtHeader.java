package io.rocelab.codec.ib;

/**
 * The IBA base and extended transport headers that follow the BTH, in the order IBA 9.2 puts them
 * on the wire: BTH [DETH] [RETH] [AtomicETH] [AETH] [AtomicAckETH] [ImmDt | IETH]. FETH (the
 * memory-placement FLUSH header, IBA 1.5 Annex A19) precedes RETH. The CNP header is RoCEv2
 * Annex A17's 16 reserved bytes.
 */
public enum ExtHeader {
    DETH(8),
    FETH(4),
    RETH(16),
    ATOMIC_ETH(28),
    AETH(4),
    ATOMIC_ACK_ETH(8),
    IMM_DT(4),
    IETH(4),
    CNP(16);

    private final int length;

    ExtHeader(int length) {
        this.length = length;
    }

    /** Length in bytes on the wire. */
    public int length() {
        return length;
    }

    /** The bit of this header in an {@link Opcode}'s header mask. */
    public int bit() {
        return 1 << ordinal();
    }

    /** The name Wireshark and the IBA use for the header. */
    public String wireName() {
        switch (this) {
            case ATOMIC_ETH: return "AtomicETH";
            case ATOMIC_ACK_ETH: return "AtomicAckETH";
            case IMM_DT: return "ImmDt";
            default: return name();
        }
    }

    private static final ExtHeader[] VALUES = values();

    static ExtHeader[] all() {
        return VALUES;
    }
}
