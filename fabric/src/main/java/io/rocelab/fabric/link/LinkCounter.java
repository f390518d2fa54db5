package io.rocelab.fabric.link;

/**
 * The counters of one direction of an {@link InProcessLink}.
 *
 * <p>Every frame handed to {@code send} ends in exactly one of delivered, dropped or still in
 * flight, duplicates included: {@code FRAMES_SENT + DUPLICATED = FRAMES_DELIVERED + DROPPED_LOSS +
 * DROPPED_LINK_DOWN + DROPPED_NO_RECEIVER + in flight}.
 */
public enum LinkCounter {
    /** Frames handed to the sending port, whatever became of them. */
    FRAMES_SENT,
    /** Bytes of those frames (frame bytes only, without wire overhead). */
    BYTES_SENT,
    /** Frames given to the receiver, duplicates included. */
    FRAMES_DELIVERED,
    /** Bytes of those frames. */
    BYTES_DELIVERED,
    /** Frames dropped by injected loss. */
    DROPPED_LOSS,
    /** Frames sent while the link was down, or in flight when it went down. */
    DROPPED_LINK_DOWN,
    /** Frames that arrived at a port without a receiver. */
    DROPPED_NO_RECEIVER,
    /** Extra copies delivered by injected duplication. */
    DUPLICATED,
    /** Frames delivered with one bit flipped. */
    CORRUPTED,
    /** Frames held back so that later frames overtook them. */
    REORDERED
}
