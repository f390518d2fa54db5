package io.rocelab.perftest.oob;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The listening side of the out-of-band connection. Like perftest and pingpong it takes one client
 * and stops listening; binding and accepting are separate so that a caller (or a test) can learn
 * the port before it blocks.
 */
public final class OobServer implements Closeable {
    /** perftest's and pingpong's default TCP port ({@code DEF_PORT}). */
    public static final int DEFAULT_PORT = 18515;

    private final ServerSocket listener;

    private OobServer(ServerSocket listener) {
        this.listener = listener;
    }

    /** Listens on the address (port 0 picks a free port), with SO_REUSEADDR as perftest sets it. */
    public static OobServer bind(InetSocketAddress address) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(address, 1);
            return new OobServer(s);
        } catch (IOException e) {
            s.close();
            throw new IOException("Couldn't listen to port " + address.getPort() + ": " + e.getMessage(), e);
        }
    }

    /** Listens on every address of the host, as perftest does. */
    public static OobServer bind(int port) throws IOException {
        return bind(new InetSocketAddress(port));
    }

    /** The port actually bound. */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Waits for one client, then stops listening.
     *
     * @param acceptTimeout how long to wait for the client; {@link Duration#ZERO} waits forever
     * @param ioTimeout     limit for each read once connected
     */
    public OobChannel accept(Duration acceptTimeout, Duration ioTimeout) throws IOException {
        try {
            listener.setSoTimeout((int) Math.min(Integer.MAX_VALUE, acceptTimeout.toMillis()));
            Socket s = listener.accept();
            return OobChannel.server(s, ioTimeout);
        } catch (SocketTimeoutException e) {
            throw new OobProtocolException("no client connected to port " + port() + " within " + acceptTimeout);
        } finally {
            listener.close();
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
