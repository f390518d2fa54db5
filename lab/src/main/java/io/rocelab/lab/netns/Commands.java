package io.rocelab.lab.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The machine's own tools (ip, ethtool, sysctl, iperf3, tshark), run to completion or started. */
public final class Commands {
    private static final long WAIT_SECONDS = 30;

    private Commands() {
    }

    /**
     * @return the tool's absolute path: from PATH, else from the sbin and bin directories (a non-login
     *         environment may leave /usr/sbin, where Debian puts ip and ethtool, out of PATH); null if absent
     */
    public static String find(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return null;
    }

    /** @return the tool's path, or a one-line failure naming what to install */
    static String require(String tool, String pkg) {
        String p = find(tool);
        if (p == null) {
            throw new NetnsException(tool + " is not installed (apt-get install " + pkg + ")");
        }
        return p;
    }

    /**
     * Runs {@code cmd} and returns its output.
     *
     * @throws NetnsException naming the command and its first line of complaint unless it exits 0
     */
    static String run(List<String> cmd) {
        Result r = attempt(cmd);
        if (r.exit != 0) {
            throw new NetnsException(String.join(" ", cmd) + ": " + firstLine(r.output) + " (exit " + r.exit + ")");
        }
        return r.output;
    }

    /** Runs {@code cmd} whatever it says. */
    static Result attempt(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "did not finish within " + WAIT_SECONDS + " s");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** What a command said and how it ended. */
    record Result(int exit, String output) {
    }

    static String firstLine(String text) {
        return text.strip().lines().findFirst().orElse("");
    }
}
