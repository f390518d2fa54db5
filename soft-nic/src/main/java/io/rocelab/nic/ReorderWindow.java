package io.rocelab.nic;

/**
 * The reorder window of an RC QP with out-of-order data placement ({@link QpCreateFlag#OOO_DP}):
 * the request packets the responder took ahead of its expected PSN (ePSN), or the responses the
 * completer took ahead of the one it waits for, a bitmap of their PSNs
 * over the window and each packet, held (a copy of its frame) until the packets before it came and
 * it can be executed in order. A packet {@code d} PSNs ahead of ePSN fits when {@code 0 < d < size};
 * PSNs are kept by their low bits, so two PSNs in the window never share a slot, and a slot left
 * behind by ePSN (a PSN inside a READ's span, say) is simply overwritten. Owner thread only.
 */
final class ReorderWindow {
    private final int size;
    private final int mask;
    /** Bit {@code psn & mask}: a packet of that PSN is held (the PSN bitmap over the window). */
    private final long[] bits;
    private final RxPacket[] held;
    private int count;

    /** @param size PSNs the window spans from ePSN (ePSN itself included), 2..2^23 */
    ReorderWindow(int size) {
        if (size < 2 || size > 1 << 23) {
            throw new IllegalArgumentException("reorder window must be 2..8388608 PSNs: " + size);
        }
        this.size = size;
        int slots = Integer.highestOneBit(size - 1) << 1;
        this.mask = slots - 1;
        this.bits = new long[Math.max(1, slots >>> 6)];
        this.held = new RxPacket[slots];
    }

    /** PSNs the window spans from ePSN: a packet fits when it is 1..size-1 ahead. */
    int size() {
        return size;
    }

    /** Whether a packet {@code ahead} PSNs after ePSN fits in the window. */
    boolean fits(int ahead) {
        return ahead > 0 && ahead < size;
    }

    /** Whether a packet of {@code psn} is held. */
    boolean has(int psn) {
        return peek(psn) != null;
    }

    /** The packet of {@code psn} held, or null. */
    RxPacket peek(int psn) {
        int i = psn & mask;
        if ((bits[i >>> 6] & 1L << i) == 0) {
            return null;
        }
        RxPacket p = held[i];
        return p.psn == psn ? p : null;
    }

    /** Holds {@code p} (a copy the window now owns), replacing whatever its slot held before. */
    void put(RxPacket p) {
        int i = p.psn & mask;
        if ((bits[i >>> 6] & 1L << i) != 0) {
            held[i].buf.release();
            count--;
        }
        held[i] = p;
        bits[i >>> 6] |= 1L << i;
        count++;
    }

    /** Takes the packet of {@code psn} out of the window, or returns null if none is held. */
    RxPacket take(int psn) {
        RxPacket p = peek(psn);
        if (p != null) {
            int i = psn & mask;
            held[i] = null;
            bits[i >>> 6] &= ~(1L << i);
            count--;
        }
        return p;
    }

    /** Packets held (stale ones behind ePSN included, until overwritten). */
    int count() {
        return count;
    }

    /** Forgets every packet held (the QP's message state was reset). */
    void clear() {
        for (int i = 0; i < held.length; i++) {
            if (held[i] != null) {
                held[i].buf.release();
                held[i] = null;
            }
        }
        java.util.Arrays.fill(bits, 0);
        count = 0;
    }
}
