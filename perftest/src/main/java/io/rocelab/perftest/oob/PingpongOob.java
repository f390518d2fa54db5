package io.rocelab.perftest.oob;

import java.io.IOException;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * rdma-core pingpong's exchange ({@code pp_client_exch_dest} / {@code pp_server_exch_dest}): the
 * client sends its record and reads the server's, then sends "done"; the server reads the client's
 * record, connects its QP to it (so that it is ready before the client can send), answers with its
 * own record and waits for "done".
 */
public final class PingpongOob {
    private PingpongOob() {
    }

    /** The client's side; returns the server's record. */
    public static PingpongRecord client(OobChannel channel, PingpongRecord mine) throws IOException {
        requireRole(channel, OobChannel.Role.CLIENT);
        channel.write("pingpong record", mine.encode());
        PingpongRecord theirs = PingpongRecord.decode(channel.read("pingpong record", PingpongRecord.WIRE_SIZE));
        channel.write("done", DoneMessage.encode());
        return theirs;
    }

    /**
     * The server's side.
     *
     * @param connect given the client's record, brings the local QP to RTR/RTS and returns the
     *                local record to send back
     * @return the client's record
     */
    public static PingpongRecord server(OobChannel channel, UnaryOperator<PingpongRecord> connect)
            throws IOException {
        requireRole(channel, OobChannel.Role.SERVER);
        Objects.requireNonNull(connect, "connect");
        PingpongRecord theirs = PingpongRecord.decode(channel.read("pingpong record", PingpongRecord.WIRE_SIZE));
        PingpongRecord mine = Objects.requireNonNull(connect.apply(theirs), "local record");
        channel.write("pingpong record", mine.encode());
        DoneMessage.check(channel.read("done", DoneMessage.WIRE_SIZE));
        return theirs;
    }

    private static void requireRole(OobChannel channel, OobChannel.Role role) {
        if (channel.role() != role) {
            throw new IllegalStateException("this is the " + role.name().toLowerCase() + "'s side of the exchange,"
                    + " but the channel is a " + channel.role().name().toLowerCase());
        }
    }
}
