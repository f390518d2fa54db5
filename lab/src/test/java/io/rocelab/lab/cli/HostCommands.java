package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The host's own commands (ip, ethtool, ping, tshark) as the namespace tests run them. */
public final class HostCommands {
    private HostCommands() {
    }

    /**
     * The tool's absolute path: from PATH, else from the sbin and bin directories, since a non-login
     * environment may leave /usr/sbin (where Debian puts ip and ethtool) out of PATH; null if absent.
     */
    public static String find(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return null;
    }

    /** Runs {@code cmd} and fails the test unless it exits 0 within 30 s. */
    public static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    /** Runs {@code cmd}, fails the test unless it exits 0 within 30 s, and returns its standard output. */
    public static String output(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    /** Runs {@code cmd} for a clean-up, whatever it says or however it ends. */
    public static void quietly(String... cmd) throws IOException, InterruptedException {
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
            .waitFor(10, TimeUnit.SECONDS);
    }
}
