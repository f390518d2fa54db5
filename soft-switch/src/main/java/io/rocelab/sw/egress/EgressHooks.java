package io.rocelab.sw.egress;

import io.netty.buffer.ByteBuf;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.PacketContext;

/** What an egress port asks of its switch: buffer release, drop bookkeeping, capture. */
public interface EgressHooks {
    /** The frame left its queue: give its buffer back to the MMU. */
    void dequeued(PacketContext ctx);

    /** Count, capture and release a dropped frame and recycle its context (already dequeued). */
    void dropped(PacketContext ctx, DropReason reason);

    /** A frame is about to be sent on {@code port}; {@code comment} may be null. */
    void transmitting(int port, ByteBuf frame, String comment);

    /** The context is done with. */
    void recycle(PacketContext ctx);
}
