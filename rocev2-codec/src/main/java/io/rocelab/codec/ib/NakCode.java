package io.rocelab.codec.ib;

/**
 * NAK codes carried in the low five bits of an AETH syndrome whose top bits are 11 (IBA 9.7.5.2.2,
 * Table 42). Unknown codes are reported as {@link #RESERVED}.
 */
public enum NakCode {
    PSN_SEQUENCE_ERROR(0),
    INVALID_REQUEST(1),
    REMOTE_ACCESS_ERROR(2),
    REMOTE_OPERATIONAL_ERROR(3),
    INVALID_RD_REQUEST(4),
    RESERVED(-1);

    private final int code;

    NakCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static NakCode of(int code) {
        return switch (code) {
            case 0 -> PSN_SEQUENCE_ERROR;
            case 1 -> INVALID_REQUEST;
            case 2 -> REMOTE_ACCESS_ERROR;
            case 3 -> REMOTE_OPERATIONAL_ERROR;
            case 4 -> INVALID_RD_REQUEST;
            default -> RESERVED;
        };
    }
}
