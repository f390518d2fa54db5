package io.rocelab.codec.lldp;

/**
 * An LLDPDU that IEEE 802.1AB-2016 9.2.7.7 has a receiver discard (the three mandatory TLVs not
 * first and in order, a TLV that runs past the frame, a TLV too short for what it must hold). The
 * message says what was wrong and where; receivers count it ({@code statsFramesDiscardedTotal})
 * and drop the frame.
 */
public final class LldpduException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public LldpduException(String message) {
        super(message);
    }
}
