package io.rocelab.codec.capture;

/**
 * Which way a captured packet was going on its interface, as recorded by the two low bits of the
 * pcapng Enhanced Packet Block flags word (draft-ietf-opsawg-pcapng §4.3.1). Classic pcap has no
 * place for it, so its records are always {@link #UNKNOWN}.
 */
public enum PacketDirection {
    /** Not recorded (flags bits 00, or the invalid value 11). */
    UNKNOWN(0),
    /** Received on the interface (flags bits 01). */
    INBOUND(1),
    /** Sent by the interface (flags bits 10). */
    OUTBOUND(2);

    private final int flagBits;

    PacketDirection(int flagBits) {
        this.flagBits = flagBits;
    }

    /** The value of bits 0-1 of the epb_flags word for this direction. */
    public int flagBits() {
        return flagBits;
    }

    /**
     * The direction encoded in an epb_flags word.
     *
     * @param epbFlags the whole 32-bit flags word; only bits 0-1 are looked at
     */
    public static PacketDirection fromFlags(int epbFlags) {
        return switch (epbFlags & 0x3) {
            case 1 -> INBOUND;
            case 2 -> OUTBOUND;
            default -> UNKNOWN;
        };
    }
}
