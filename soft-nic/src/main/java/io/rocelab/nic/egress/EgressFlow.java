package io.rocelab.nic.egress;

/**
 * One source of data packets for the NIC's {@link NicEgress}: a QP's send side (its requester and
 * its responder's READ responses). The egress keeps each flow in exactly one place: idle (in no
 * list: nothing to send, or blocked by its window, its state or an RNR wait, until it is
 * {@linkplain NicEgress#wake woken}), ready (in the round robin), paced (waiting for its next send
 * time) or paused (waiting for PFC to let its priority go). A flow that cannot send costs nothing
 * until it can.
 *
 * <p>Owner thread only.
 */
public abstract class EgressFlow {
    enum Place { IDLE, READY, PACED, PAUSED }

    // the egress's bookkeeping
    Place place = Place.IDLE;
    EgressFlow next;
    EgressFlow prev;
    /** While {@link Place#PACED}: the time it may send again. */
    long pacedUntil;

    /** @return the 802.1p priority its frames go at (what PFC pauses) */
    protected abstract int priority();

    /**
     * Builds its next packet, if it may send one now. A step that made no packet of its own (one
     * parked for ARP, a local operation) is followed by the flow's next, within this call.
     *
     * @return a {@link SendStep.Frame} for the transmitter, {@link SendStep#WRITTEN_IN_PLACE} for a
     *         packet the port already took, or {@link SendStep#NOTHING} if it has nothing it may
     *         send now (it goes idle until woken)
     */
    protected abstract SendStep nextPacket(long nowNanos);

    /** @return the earliest time its next packet may go, by its pacing ({@link Long#MIN_VALUE}: now) */
    protected abstract long nextSendAtNanos();
}
