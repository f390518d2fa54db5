package io.rocelab.lab.switchd;

import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code show}/{@code clear} side of a running switch's {@link ControlSocket}. */
public final class ControlClient {
    private ControlClient() {
    }

    /**
     * The switch's answer to one request.
     *
     * @param status 0 done, 2 a request the switch does not know, 1 the switch failed to answer
     * @param text   what to print
     */
    public record Answer(int status, String text) {
    }

    /**
     * @param request e.g. {@code show pfc counters}
     * @throws IllegalArgumentException in one line, when no switch answers on {@code path}
     */
    public static Answer ask(Path path, String request) {
        if (!Files.exists(path)) {
            throw new IllegalArgumentException("no switch is running on " + path + " (start one with rocelab switch"
                + " --config FILE --port ..., or name it with --name)");
        }
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            c.connect(UnixDomainSocketAddress.of(path));
            c.write(java.nio.ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.UTF_8)));
            c.shutdownOutput();
            InputStream in = Channels.newInputStream(c);
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int nl = all.indexOf('\n');
            if (nl < 0) {
                throw new IllegalArgumentException("the switch on " + path + " closed the connection without an answer");
            }
            return new Answer(Integer.parseInt(all.substring(0, nl).strip()), all.substring(nl + 1));
        } catch (IOException e) {
            throw new IllegalArgumentException("no switch answers on " + path + " (" + e.getMessage() + ")", e);
        }
    }

    /** @return whether a switch answers on {@code path} */
    static boolean answers(Path path) {
        try {
            return ask(path, "ping").status() == 0;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
