package io.rocelab.nic.egress;

import io.netty.buffer.ByteBuf;

/**
 * What one send step of a QP made (its requester's next request packet, its responder's next READ
 * response; {@link EgressFlow#nextPacket}): a frame for the transmitter, or no frame and why. It is
 * the step's return value; nothing about the packet travels beside it.
 *
 * <p>A frame is a {@link Frame}; the outcomes without one are the constants here, of
 * {@link NoFrame}.
 */
public sealed interface SendStep {
    /** Nothing may go now (the window, the QP's state, an RNR wait, an empty send queue). */
    SendStep NOTHING = NoFrame.NOTHING;
    /**
     * The packet waits for ARP or neighbour discovery to resolve its next hop (or was dropped,
     * counted, as the parked frames for that address were already too many): it leaves later,
     * in order, through the port's control queue.
     */
    SendStep PARKED = NoFrame.PARKED;
    /**
     * The packet was written straight into the port's send buffer and committed there (UDP
     * endpoint mode, {@link io.rocelab.fabric.endpoint.UdpPayloadSink}): it is sent, and there is
     * no frame for the transmitter. Such a port has no line rate to pace.
     */
    SendStep WRITTEN_IN_PLACE = NoFrame.WRITTEN_IN_PLACE;
    /**
     * Progress without a packet: a local operation done (LOCAL_INV), or the packet dropped because
     * the NIC is closed.
     */
    SendStep NO_PACKET = NoFrame.NO_PACKET;

    /** @return whether a packet left the QP in this step: a frame, or one written in place */
    default boolean isPacket() {
        return this instanceof Frame || this == WRITTEN_IN_PLACE;
    }

    /**
     * A frame ready to transmit: its next hop is resolved and its destination MAC set; it is the
     * transmitter's (to start and release) from now on. A port keeps one and hands it out again for
     * each frame ({@link #carry}), so a send step allocates nothing: what it carries is valid until
     * that port's next step, which the pull that asked for it never outlives (one owner thread).
     */
    final class Frame implements SendStep {
        private ByteBuf frame;

        /** A carrier holding nothing yet. */
        public Frame() {
        }

        /** A carrier holding {@code frame}. */
        public Frame(ByteBuf frame) {
            this.frame = frame;
        }

        /** @return this carrier, now holding {@code next} */
        public Frame carry(ByteBuf next) {
            this.frame = next;
            return this;
        }

        /** @return the frame this step made */
        public ByteBuf frame() {
            return frame;
        }
    }

    /** The steps that make no frame (see the constants of {@link SendStep}). */
    enum NoFrame implements SendStep {
        NOTHING, PARKED, WRITTEN_IN_PLACE, NO_PACKET
    }
}
