package io.rocelab.perftest.oob;

import java.nio.ByteBuffer;

/**
 * The memory layout both sides agree on before they allocate buffers (perftest 5.32 and later):
 * the "cycle buffer" — the stride at which each QP's buffer region starts, the page size — and the
 * cache line size. Each is one 4-byte big-endian exchange, and each side keeps the larger value.
 *
 * @param cycleBuffer   bytes per buffer slot, normally the page size (4096)
 * @param cacheLineSize bytes per cache line (64)
 */
public record SystemData(int cycleBuffer, int cacheLineSize) {

    /** perftest's fall-backs, and what a Linux x86-64 host reports. */
    public static final SystemData DEFAULT = new SystemData(4096, 64);

    /** Bytes of each of the two exchanges. */
    public static final int FIELD_SIZE = 4;

    /** What both sides use after the exchange: the larger of each value. */
    public SystemData max(SystemData other) {
        return new SystemData(Math.max(cycleBuffer, other.cycleBuffer),
                Math.max(cacheLineSize, other.cacheLineSize));
    }

    /** One field on the wire: a big-endian 32-bit integer. */
    public static byte[] encodeField(int value) {
        return ByteBuffer.allocate(FIELD_SIZE).putInt(value).array();
    }

    /** Reads one field. */
    public static int decodeField(String field, byte[] wire) {
        if (wire.length != FIELD_SIZE) {
            throw new OobFormatException("perftest " + field + ": expected 4 bytes, got " + wire.length);
        }
        return ByteBuffer.wrap(wire).getInt();
    }
}
