package io.rocelab.perftest.oob;

import java.nio.ByteBuffer;

/**
 * The end-of-run report exchange of perftest's bandwidth tests ({@code xchg_bw_reports}): the
 * message size, the iteration count, peak and average bandwidth and the message rate, each a
 * separate exchange of a big-endian value — the size an 8-byte integer, the count 8 bytes (4 for
 * peers before 5.33), the rest IEEE doubles. The server prints the client's values; what the
 * server sends is left over from memory and means nothing.
 */
public final class BwReportMessage {
    /** The fields in wire order. */
    public static final String[] FIELDS = {"size", "iterations", "peak", "average", "message rate"};

    private BwReportMessage() {
    }

    /** The byte size of each field for a peer of the given version. */
    public static int[] fieldSizes(PerftestVersion peer) {
        return new int[] {8, peer.sendsLongIterations() ? 8 : 4, 8, 8, 8};
    }

    /** The five field messages, in order, for a peer of the given version. */
    public static byte[][] encode(BwResult r, PerftestVersion peer) {
        byte[] iterations = peer.sendsLongIterations()
                ? ByteBuffer.allocate(8).putLong(r.iterations()).array()
                : ByteBuffer.allocate(4).putInt((int) r.iterations()).array();
        return new byte[][] {
            ByteBuffer.allocate(8).putLong(r.size()).array(),
            iterations,
            ByteBuffer.allocate(8).putDouble(r.peak()).array(),
            ByteBuffer.allocate(8).putDouble(r.average()).array(),
            ByteBuffer.allocate(8).putDouble(r.messageRate()).array(),
        };
    }

    /** The report from its five field messages. */
    public static BwResult decode(byte[][] fields) {
        if (fields.length != FIELDS.length) {
            throw new OobFormatException("perftest BW report: expected 5 fields, got " + fields.length);
        }
        for (int i = 0; i < fields.length; i++) {
            boolean ok = fields[i].length == 8 || (i == 1 && fields[i].length == 4);
            if (!ok) {
                throw new OobFormatException("perftest BW report: field " + FIELDS[i] + " has "
                        + fields[i].length + " bytes");
            }
        }
        long iterations = fields[1].length == 8
                ? ByteBuffer.wrap(fields[1]).getLong()
                : Integer.toUnsignedLong(ByteBuffer.wrap(fields[1]).getInt());
        return new BwResult(ByteBuffer.wrap(fields[0]).getLong(), iterations,
                ByteBuffer.wrap(fields[2]).getDouble(), ByteBuffer.wrap(fields[3]).getDouble(),
                ByteBuffer.wrap(fields[4]).getDouble());
    }
}
