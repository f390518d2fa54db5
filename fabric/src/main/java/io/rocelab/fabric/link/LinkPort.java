package io.rocelab.fabric.link;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.time.PartitionedVirtualTime;
import io.rocelab.fabric.time.Scheduler;

/**
 * One end of an {@link InProcessLink}.
 *
 * <p>Its owner is the scheduler of the NIC or switch attached to it: received frames and link-state
 * changes arrive on that scheduler's thread.
 */
public final class LinkPort extends AbstractFramePort {

    private final InProcessLink link;
    private final Scheduler owner;
    private LinkDirection outgoing;
    private LinkDirection incoming;

    LinkPort(String name, InProcessLink link, Scheduler owner, boolean initiallyUp) {
        super(name, initiallyUp);
        this.link = link;
        this.owner = owner;
    }

    void connect(LinkDirection outgoing, LinkDirection incoming) {
        this.outgoing = outgoing;
        this.incoming = incoming;
        outgoing.connectSender(this);
    }

    /** The link's speed: the sending device's transmitter paces at it. */
    @Override
    public long speedBitsPerSecond() {
        return link.rateBitsPerSecond();
    }

    @Override
    public boolean isWritable() {
        return outgoing.isWritable();
    }

    /** The receiver has taken what this port handed over: tell the sending device, on its thread. */
    void tellWritable() {
        if (owner.inOwnerThread()) {
            fireWritable();
        } else {
            owner.execute(this::fireWritable);
        }
    }

    @Override
    public void send(ByteBuf frame) {
        outgoing.send(frame, LinkDirection.NO_TIME);
    }

    /** The sender's time becomes the frame's start on the wire where the link shares its clock. */
    @Override
    public void send(ByteBuf frame, long nowNanos) {
        outgoing.send(frame, nowNanos);
    }

    /**
     * @return the link this port belongs to
     */
    public InProcessLink link() {
        return link;
    }

    /**
     * @return the scheduler on whose thread this port delivers frames and state changes
     */
    public Scheduler owner() {
        return owner;
    }

    /**
     * @return the direction this port transmits on
     */
    public LinkDirection outgoing() {
        return outgoing;
    }

    /**
     * @return the direction this port receives from
     */
    public LinkDirection incoming() {
        return incoming;
    }

    /** For {@link LinkDirection}: the receiver at the time of delivery. */
    FrameReceiver currentReceiver() {
        return receiver();
    }

    /**
     * Runs a state change on the owner thread: flush the incoming direction, then tell listeners. In
     * a partitioned virtual-time run, where the two directions of a link may belong to two LPs, the
     * change applies at a barrier: right away from a global event, else as a global event.
     */
    void requestLinkState(boolean newState) {
        final Scheduler global = PartitionedVirtualTime.globalOf(owner);
        if (global != null && !global.inOwnerThread()) {
            global.execute(() -> applyLinkState(newState));
            return;
        }
        if (owner.inOwnerThread()) {
            applyLinkState(newState);
        } else {
            owner.execute(() -> applyLinkState(newState));
        }
    }

    private void applyLinkState(boolean newState) {
        incoming.applyLinkState(newState);
        updateLinkState(newState);
    }
}
