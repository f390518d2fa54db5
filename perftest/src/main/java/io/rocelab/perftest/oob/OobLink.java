package io.rocelab.perftest.oob;

import java.io.Closeable;
import java.io.IOException;

/**
 * What perftest's exchange runs over: a TCP connection ({@link OobChannel}) or, with {@code -R},
 * an RC QP that rdma_cm connected, carrying each message as one SEND. Either way every exchange
 * is one fixed-size write and one fixed-size read, the client writing first and the server
 * reading first.
 */
public interface OobLink extends Closeable {
    /** Which side writes first. */
    OobChannel.Role role();

    /**
     * True for perftest's rdma_cm link ({@code -R}): key records travel as the 56-byte binary
     * struct and the session ends without "done".
     */
    default boolean viaRdmaCm() {
        return false;
    }

    /** Installs a trace that sees every message from now on. */
    OobLink trace(OobTrace t);

    /**
     * One exchange: the client writes {@code mine} then reads {@code theirLength} bytes; the server
     * reads first, then writes.
     */
    default byte[] exchange(String what, byte[] mine, int theirLength) throws IOException {
        if (role() == OobChannel.Role.CLIENT) {
            write(what, mine);
            return read(what, theirLength);
        }
        byte[] theirs = read(what, theirLength);
        write(what, mine);
        return theirs;
    }

    /** One exchange of equally sized messages. */
    default byte[] exchange(String what, byte[] mine) throws IOException {
        return exchange(what, mine, mine.length);
    }

    /** Writes one whole message. */
    void write(String what, byte[] bytes) throws IOException;

    /** Reads one whole message of exactly {@code length} bytes. */
    byte[] read(String what, int length) throws IOException;

    @Override
    void close() throws IOException;
}
