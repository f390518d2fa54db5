package io.rocelab.sw.pipeline;

/**
 * A free list of {@link PacketContext}s: grows to the largest number of frames the switch ever
 * holds at once, then the data path allocates no contexts. Owner thread only.
 */
public final class ContextPool {
    private PacketContext free;
    private int created;

    /** @return a reset context */
    public PacketContext acquire() {
        PacketContext c = free;
        if (c == null) {
            created++;
            c = new PacketContext();
        } else {
            free = c.next;
        }
        c.reset();
        return c;
    }

    /** @param c a context whose frame has been sent or released */
    public void release(PacketContext c) {
        c.frame = null;
        c.next = free;
        free = c;
    }

    /** @return how many contexts were ever allocated */
    public int created() {
        return created;
    }
}
