package io.rocelab.sw.pipeline;

import io.netty.buffer.ByteBuf;

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

    /**
     * A context for a received frame that {@link ParseStage#apply} parses next: the same as
     * {@link #acquire()} followed by setting the frame, its length, ingress port and arrival time,
     * except that the fields the parse always writes are left for it to write.
     *
     * @return the context, owning {@code frame}
     */
    public PacketContext acquireForParse(ByteBuf frame, int ingressPort, long arrivalNanos) {
        PacketContext c = free;
        if (c == null) {
            created++;
            c = new PacketContext();
            c.reset();
        } else {
            free = c.next;
        }
        c.resetForParse(frame, ingressPort, arrivalNanos);
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
