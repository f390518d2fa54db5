package io.rocelab.nic;

/**
 * One scatter/gather element: {@code length} bytes at virtual address {@code addr} of the memory
 * region with local key {@code lkey} ({@code struct ibv_sge}).
 */
public record Sge(long addr, int length, int lkey) {
    public Sge {
        if (length < 0) {
            throw new IllegalArgumentException("Sge length must be >= 0: " + length);
        }
    }

    /** The whole of a region. */
    public static Sge of(MemoryRegion mr) {
        return new Sge(mr.addr(), mr.length(), mr.lkey());
    }

    /** {@code length} bytes at {@code offset} into a region. */
    public static Sge of(MemoryRegion mr, int offset, int length) {
        return new Sge(mr.addr() + offset, length, mr.lkey());
    }
}
