package io.rocelab.lab.switchd;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;

/**
 * The switch's end of its {@link ControlSocket}: a thread that answers one request per connection
 * with {@link ShowCommands}. The socket file is made only for its owner (mode 0700 directory) and
 * removed by {@link #close()}.
 */
public final class ControlServer implements AutoCloseable {
    private static final int MAX_REQUEST_CHARS = 1024;

    private final Path path;
    private final ServerSocketChannel server;
    private final SwitchDaemon daemon;
    private final Thread thread;

    /**
     * @throws IllegalArgumentException in one line, if another switch already answers on {@code path}
     * @throws IOException              if the socket cannot be made
     */
    public ControlServer(Path path, SwitchDaemon daemon) throws IOException {
        this.path = path;
        this.daemon = daemon;
        Path dir = path.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            try {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its own permissions apply
            }
        }
        if (Files.exists(path)) {
            if (ControlClient.answers(path)) {
                throw new IllegalArgumentException("a switch is already running on " + path
                    + " (stop it, or give this one another --name)");
            }
            Files.delete(path);
        }
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(path));
        this.thread = new Thread(this::serve, "switch-control");
        thread.setDaemon(true);
        thread.start();
    }

    public Path path() {
        return path;
    }

    private void serve() {
        while (server.isOpen()) {
            try (SocketChannel c = server.accept()) {
                answer(c);
            } catch (IOException e) {
                // closed, or a client that went away: serve the next one
            }
        }
    }

    private void answer(SocketChannel c) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(c), StandardCharsets.UTF_8));
        String request = in.readLine();
        String status;
        String text;
        if (request == null || request.length() > MAX_REQUEST_CHARS) {
            status = "2";
            text = "no request\n";
        } else {
            try {
                text = run(Arrays.asList(request.strip().split("\\s+")));
                status = "0";
            } catch (IllegalArgumentException e) {
                status = "2";
                text = e.getMessage() + "\n";
            } catch (RuntimeException e) {
                status = "1";
                text = "the switch could not answer: " + e.getMessage() + "\n";
            }
        }
        OutputStream out = Channels.newOutputStream(c);
        out.write((status + "\n" + text).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private String run(List<String> words) {
        String verb = words.get(0);
        List<String> rest = words.subList(1, words.size());
        switch (verb) {
            case "show":
                return ShowCommands.show(daemon, rest);
            case "clear":
                return ShowCommands.clear(daemon, rest);
            case "ping":
                return "pong\n";
            default:
                throw new IllegalArgumentException("unknown request '" + verb + "' (show ..., clear counters, clear watermark)");
        }
    }

    /** Stops answering and removes the socket file. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // going away anyway
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a stale file is removed by the next switch of this name
        }
    }
}
