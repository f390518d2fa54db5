package io.rocelab.perftest.oob;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Objects;

/**
 * The TCP connection two perftest (or pingpong) sides use before and after the RDMA traffic.
 *
 * <p>Both tools use it the same way: every exchange is one fixed-size write and one fixed-size
 * read, the client writing first and the server reading first, so the two can never deadlock and
 * no framing is needed. This class is that primitive over a blocking socket; the message formats
 * and their order live in {@link PerftestOob} and {@link PingpongOob}.
 */
public final class OobChannel implements OobLink {
    /** Which side writes first. */
    public enum Role {
        /** Connects, and writes first in every exchange. */
        CLIENT,
        /** Accepts, and reads first in every exchange. */
        SERVER
    }

    private final Socket socket;
    private final Role role;
    private final DataInputStream in;
    private final OutputStream out;
    private OobTrace trace = OobTrace.NONE;

    OobChannel(Socket socket, Role role) throws IOException {
        this.socket = socket;
        this.role = role;
        socket.setTcpNoDelay(true);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Connects to a server, once, as perftest does (it does not retry: start the server first).
     *
     * @param timeout limit for the connect and then for each read
     */
    public static OobChannel connect(String host, int port, Duration timeout) throws IOException {
        Objects.requireNonNull(host, "host");
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            return new OobChannel(s, Role.CLIENT);
        } catch (IOException e) {
            s.close();
            throw new IOException("Couldn't connect to " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** Wraps an accepted socket as the server side. */
    static OobChannel server(Socket accepted, Duration timeout) throws IOException {
        accepted.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        return new OobChannel(accepted, Role.SERVER);
    }

    @Override
    public Role role() {
        return role;
    }

    /** Installs a trace that sees every message from now on. */
    @Override
    public OobChannel trace(OobTrace t) {
        this.trace = Objects.requireNonNull(t, "trace");
        return this;
    }

    /** The peer's address, for messages. */
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    /** Writes one whole message. */
    @Override
    public void write(String what, byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        trace.sent(what, bytes);
    }

    /** Reads exactly {@code length} bytes, however TCP splits them. */
    @Override
    public byte[] read(String what, int length) throws IOException {
        byte[] buf = new byte[length];
        int got = 0;
        try {
            while (got < length) {
                int n = in.read(buf, got, length - got);
                if (n < 0) {
                    throw new EOFException();
                }
                got += n;
            }
        } catch (EOFException e) {
            throw new OobProtocolException("peer closed the connection after " + got + " of " + length
                    + " bytes of the " + what);
        } catch (SocketTimeoutException e) {
            throw new OobProtocolException("timed out waiting for the " + what + " (" + got + " of " + length
                    + " bytes received)");
        }
        trace.received(what, buf);
        return buf;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
