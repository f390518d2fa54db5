package io.rocelab.perftest.oob;

import java.io.IOException;

/** The peer is reachable but the exchange cannot go on: an incompatible version, a short read. */
public final class OobProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    public OobProtocolException(String message) {
        super(message);
    }
}
