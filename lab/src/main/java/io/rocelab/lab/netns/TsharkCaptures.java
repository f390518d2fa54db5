package io.rocelab.lab.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * tshark on hosts' interfaces ({@code capture: {tshark: [HOST]}}): each in the host's namespace on
 * its {@code eth0}, the first 128 bytes of every frame, to {@code tshark-HOST.pcapng}; stopped
 * (SIGTERM, so the file is finished) at the end of the run.
 */
public final class TsharkCaptures implements AutoCloseable {
    private static final int SNAPLEN = 128;
    private static final long READY_SECONDS = 20;

    private final Map<String, Path> files = new LinkedHashMap<>();
    private final List<Process> running = new ArrayList<>();

    private TsharkCaptures() {
    }

    /**
     * Starts a capture per host and waits until each captures.
     *
     * @param hosts host to its namespace
     * @param dir   where the files go
     */
    public static TsharkCaptures start(Map<String, String> hosts, Path dir) {
        TsharkCaptures c = new TsharkCaptures();
        try {
            for (Map.Entry<String, String> h : hosts.entrySet()) {
                c.startOne(h.getKey(), h.getValue(), dir);
            }
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void startOne(String host, String ns, Path dir) {
        Path file = dir.toAbsolutePath().resolve("tshark-" + host + ".pcapng");
        Path log = dir.toAbsolutePath().resolve("tshark-" + host + ".log");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(file);
            Process p = new ProcessBuilder(Commands.require("ip", "iproute2"), "netns", "exec", ns,
                Commands.require("tshark", "tshark"), "-i", NetnsNames.HOST_IFACE, "-s", Integer.toString(SNAPLEN),
                "-q", "-w", file.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            running.add(p);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
            while (!Files.readString(log, StandardCharsets.UTF_8).contains("Capturing on")) {
                if (!p.isAlive() || System.nanoTime() > end) {
                    throw new NetnsException("tshark on " + host + " did not start capturing: "
                        + Commands.firstLine(Files.readString(log, StandardCharsets.UTF_8)));
                }
                Thread.sleep(50);
            }
            files.put(host, file);
        } catch (IOException e) {
            throw new NetnsException("cannot capture on " + host + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NetnsException("interrupted while starting tshark", e);
        }
    }

    /** @return host to its capture file */
    public Map<String, Path> files() {
        return Map.copyOf(files);
    }

    /** @return the frames of a finished capture, and of them the PFC frames (EtherType 0x8808) */
    public static long[] frameCounts(Path file) {
        String tshark = Commands.require("tshark", "tshark");
        String all = Commands.run(List.of(tshark, "-r", file.toString(), "-T", "fields", "-e", "eth.type"));
        long frames = 0;
        long pfc = 0;
        for (String l : all.lines().toList()) {
            if (l.startsWith("Running as user")) {
                continue;
            }
            frames++;
            if (l.trim().equals("0x8808")) {
                pfc++;
            }
        }
        return new long[] {frames, pfc};
    }

    /** Stops every capture so that its file is whole. */
    @Override
    public void close() {
        for (Process p : running) {
            p.destroy();
        }
        for (Process p : running) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        running.clear();
    }
}
