package io.rocelab.codec.ib;

/**
 * The AETH syndrome byte (IBA 9.7.5.2.2, Table 41): bit 7 reserved, bits 6..5 the kind
 * (00 ACK, 01 RNR NAK, 11 NAK), bits 4..0 the credit count, the RNR timer code or the NAK code.
 */
public final class AethSyndrome {
    /** ACK with "invalid credit count" (0x1F): what RoCE devices, rxe included, send. */
    public static final int ACK_NO_CREDIT = 0x1F;

    private AethSyndrome() {
    }

    /** Syndrome kinds, named as in the IBA and in {@code vectors.json}. */
    public enum Kind {
        ACK(0), RNR_NAK(1), RESERVED(2), NAK(3);

        private final int bits;

        Kind(int bits) {
            this.bits = bits;
        }

        public int bits() {
            return bits;
        }
    }

    /** {@code Kind.values()} clones its array on every call; a completer reads one per ACK. */
    private static final Kind[] KINDS = Kind.values();

    public static Kind kind(int syndrome) {
        return KINDS[(syndrome >>> 5) & 0x3];
    }

    /** Credit count, RNR timer code or NAK code, by kind. */
    public static int value(int syndrome) {
        return syndrome & 0x1F;
    }

    public static int ack(int credits) {
        return credits & 0x1F;
    }

    /** RNR NAK with a timer code (IBA Table 45: 0 = 655.36 ms, 1 = 0.01 ms ... 31 = 491.52 ms). */
    public static int rnrNak(int timerCode) {
        return (Kind.RNR_NAK.bits << 5) | (timerCode & 0x1F);
    }

    public static int nak(NakCode code) {
        return (Kind.NAK.bits << 5) | (code.code() & 0x1F);
    }

    /** A short human description, e.g. {@code ACK}, {@code RNR_NAK(timer 14)}, {@code NAK(PSN_SEQUENCE_ERROR)}. */
    public static String describe(int syndrome) {
        return switch (kind(syndrome)) {
            case ACK -> "ACK";
            case RNR_NAK -> "RNR_NAK(timer " + value(syndrome) + ")";
            case NAK -> "NAK(" + NakCode.of(value(syndrome)) + ")";
            case RESERVED -> String.format("RESERVED(0x%02x)", syndrome);
        };
    }
}
