package io.rocelab.perftest.oob;

import io.rocelab.perftest.Mtu;
import java.nio.charset.StandardCharsets;

/**
 * The MTU exchange: each side sends its port MTU as the decimal {@code IBV_MTU_*} value followed
 * by a NUL ({@code "3\0"} for 1024 bytes) and both use the smaller. Peers from 5.31 on send 2
 * bytes; older ones sent {@code sizeof(int)} = 4, of which only the digit and NUL are meaningful.
 */
public final class MtuMessage {
    private MtuMessage() {
    }

    /** The size of the message a peer of {@code peer} version expects. */
    public static int wireSize(PerftestVersion peer) {
        return peer.sendsShortMtu() ? 2 : 4;
    }

    /** The message for a peer of the given version. */
    public static byte[] encode(Mtu mtu, PerftestVersion peer) {
        byte[] out = new byte[wireSize(peer)];
        out[0] = (byte) ('0' + mtu.ibvValue());
        return out;
    }

    /**
     * The value the peer sent, read like C's {@code strtol}: the decimal digits before the NUL.
     * Values that are not an MTU (perftest ignores them and keeps its own) are returned as read;
     * bytes that are not digits followed by a NUL are an error.
     */
    public static int decode(byte[] wire) {
        int end = 0;
        while (end < wire.length && wire[end] >= '0' && wire[end] <= '9') {
            end++;
        }
        if (end == 0 || end >= wire.length || wire[end] != 0) {
            throw new OobFormatException("perftest MTU: expected decimal digits and a NUL, got \""
                    + new String(wire, StandardCharsets.ISO_8859_1).replace("\0", "\\0") + "\"");
        }
        return Integer.parseInt(new String(wire, 0, end, StandardCharsets.US_ASCII));
    }

    /** The MTU both sides use: the smaller one, ignoring a peer value that is not an MTU. */
    public static Mtu negotiate(Mtu mine, int peerValue) {
        Mtu peer = Mtu.ofIbvValue(peerValue);
        return peer == null ? mine : mine.min(peer);
    }
}
