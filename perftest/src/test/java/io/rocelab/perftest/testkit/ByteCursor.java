package io.rocelab.perftest.testkit;

import java.util.Arrays;

/** Takes fixed-size messages off the front of a reassembled stream. */
public final class ByteCursor {
    private final byte[] bytes;
    private int pos;

    public ByteCursor(byte[] bytes) {
        this.bytes = bytes;
    }

    public byte[] take(int n) {
        if (pos + n > bytes.length) {
            throw new AssertionError("stream ends after " + bytes.length + " bytes; wanted " + n + " at " + pos);
        }
        byte[] out = Arrays.copyOfRange(bytes, pos, pos + n);
        pos += n;
        return out;
    }

    public int remaining() {
        return bytes.length - pos;
    }
}
