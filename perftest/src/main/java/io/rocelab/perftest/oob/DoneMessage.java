package io.rocelab.perftest.oob;

import java.util.Arrays;

/**
 * The last message of both exchanges: {@code "done"} and its NUL, 5 bytes. perftest's sides each
 * write it and close; a pingpong client writes it to tell the server it has the server's record.
 */
public final class DoneMessage {
    /** Bytes of the message. */
    public static final int WIRE_SIZE = 5;

    private static final byte[] WIRE = {'d', 'o', 'n', 'e', 0};

    private DoneMessage() {
    }

    public static byte[] encode() {
        return WIRE.clone();
    }

    /** Checks that the bytes are exactly {@code "done\0"}. */
    public static void check(byte[] wire) {
        if (!Arrays.equals(WIRE, wire)) {
            throw new OobFormatException("expected \"done\\0\", got " + Arrays.toString(wire));
        }
    }
}
