package io.rocelab.lab.switchd;

import java.nio.file.Path;

/**
 * Where a running switch listens for {@code show} and {@code clear}: a Unix domain socket named after
 * the switch, {@code $XDG_RUNTIME_DIR/rocelab/NAME.sock}, or {@code /tmp/rocelab-USER/NAME.sock}
 * without a runtime directory.
 *
 * <p>The protocol is one request line (the command's words, e.g. {@code show pfc counters}) and an
 * answer: a status line ({@code 0} done, {@code 2} a request the switch does not know) then the text.
 */
public final class ControlSocket {
    /** The name a switch and its {@code show} use when none is given. */
    public static final String DEFAULT_NAME = "switch";

    private ControlSocket() {
    }

    /** @return the socket path of the switch named {@code name} */
    public static Path forName(String name) {
        if (name.isEmpty() || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("--name " + name + ": use letters, digits, '.', '_' and '-'");
        }
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path dir = runtime != null && !runtime.isEmpty() ? Path.of(runtime, "rocelab")
            : Path.of(System.getProperty("java.io.tmpdir"), "rocelab-" + System.getProperty("user.name"));
        return dir.resolve(name + ".sock");
    }
}
