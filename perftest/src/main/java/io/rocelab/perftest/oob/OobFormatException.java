package io.rocelab.perftest.oob;

/**
 * Bytes from a peer that are not the message they should be. The message says which message,
 * which field and what was found, because the peer is often a different program (real perftest,
 * rdma-core's pingpong) and the user needs to see where the two disagree.
 */
public final class OobFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public OobFormatException(String message) {
        super(message);
    }
}
