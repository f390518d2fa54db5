package io.rocelab.perftest;

/**
 * The operation a perftest tool measures. The order and the names are perftest's: the names are
 * printed in the header ("RDMA_Write BW Test") and the verb decides which key fields a peer prints
 * and whether latency is a round trip (send, write) or one request/response (read, atomic).
 */
public enum Verb {
    SEND("Send"),
    WRITE("RDMA_Write"),
    READ("RDMA_Read"),
    ATOMIC("Atomic");

    private final String title;

    Verb(String title) {
        this.title = title;
    }

    /** The name perftest prints in the test title line. */
    public String title() {
        return title;
    }

    /**
     * Read and atomic latency is measured on one request and its response; send and write latency
     * is a ping-pong, so perftest halves the measured time for them.
     */
    public int roundTripFactor() {
        return this == READ || this == ATOMIC ? 1 : 2;
    }

    /** Read and atomic requests are limited by the responder's outstanding-read resources. */
    public boolean usesOutstandingReads() {
        return this == READ || this == ATOMIC;
    }
}
