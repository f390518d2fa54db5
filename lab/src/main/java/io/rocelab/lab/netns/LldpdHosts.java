package io.rocelab.lab.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Debian's lldpd on the {@code kind: linux} hosts of a netns lab that runs LLDP ({@code lldp: true}),
 * as a Linux server runs it: one per host, in the host's namespace on its {@code eth0}, so the soft
 * switches hear real LLDP agents and the hosts hear the switches. At the end of the run each host's
 * {@code lldpcli show neighbors} is one line of the report ({@link #neighbors}). lldpd's control socket
 * lives in a directory its unprivileged half (user {@code _lldpd}) may enter.
 */
public final class LldpdHosts implements AutoCloseable {
    private final Map<String, Path> sockets = new LinkedHashMap<>();
    private final List<Process> running = new ArrayList<>();
    private final Path dir;

    private LldpdHosts(Path dir) {
        this.dir = dir;
    }

    /**
     * Starts lldpd on each host.
     *
     * @param hosts host to its namespace
     * @throws NetnsException lldpd is not installed, or one did not start
     */
    public static LldpdHosts start(Map<String, String> hosts) {
        String lldpd = Commands.require("lldpd", "lldpd");
        Path dir;
        try {
            dir = Files.createTempDirectory("rocelab-lldpd", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LldpdHosts h = new LldpdHosts(dir);
        try {
            for (Map.Entry<String, String> e : hosts.entrySet()) {
                h.startOne(lldpd, e.getKey(), e.getValue());
            }
            return h;
        } catch (RuntimeException e) {
            h.close();
            throw e;
        }
    }

    private void startOne(String lldpd, String host, String ns) {
        Path sock = dir.resolve(host + ".sock");
        Path log = dir.resolve(host + ".log");
        // the namespaces share the machine's host name: lldpcli's configuration, read at start, names the host
        Path conf = dir.resolve(host + ".conf");
        try {
            Files.writeString(conf, "configure system hostname " + host + "\n");
            Process p = new ProcessBuilder(Commands.require("ip", "iproute2"), "netns", "exec", ns, lldpd, "-d", "-u",
                sock.toString(), "-O", conf.toString(), "-I", NetnsNames.HOST_IFACE, "-S", "rocelab lab host " + host)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            running.add(p);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!Files.exists(sock)) {
                if (!p.isAlive() || System.nanoTime() > end) {
                    throw new NetnsException("lldpd on " + host + " did not start: "
                        + Commands.firstLine(Files.readString(log)));
                }
                Thread.sleep(50);
            }
            sockets.put(host, sock);
        } catch (IOException e) {
            throw new NetnsException("lldpd on " + host + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NetnsException("interrupted starting lldpd on " + host);
        }
    }

    /**
     * @return per host, what its lldpd heard on {@code eth0} ({@code lldpcli show neighbors}): {@code lldpd on
     *         t1: eth0 hears sw0 Ethernet4 (Ethernet4, ttl 121)}, or that it heard nothing
     */
    public List<String> neighbors() {
        String lldpcli = Commands.find("lldpcli");
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Path> e : sockets.entrySet()) {
            if (lldpcli == null) {
                out.add("lldpd on " + e.getKey() + ": lldpcli is not installed");
                continue;
            }
            Commands.Result r = Commands.attempt(List.of(lldpcli, "-u", e.getValue().toString(), "show", "neighbors",
                "-f", "keyvalue"));
            out.add("lldpd on " + e.getKey() + ": " + NetnsNames.HOST_IFACE + " " + heard(r.output()));
        }
        return out;
    }

    /** The neighbour in lldpcli's keyvalue output ({@code lldp.eth0.chassis.name=leaf0} ...). */
    static String heard(String keyvalue) {
        Map<String, String> kv = new LinkedHashMap<>();
        String prefix = "lldp." + NetnsNames.HOST_IFACE + ".";
        for (String line : keyvalue.lines().toList()) {
            int eq = line.indexOf('=');
            if (line.startsWith(prefix) && eq > 0) {
                kv.putIfAbsent(line.substring(prefix.length(), eq), line.substring(eq + 1));
            }
        }
        String name = kv.get("chassis.name");
        if (name == null) {
            return "hears nothing";
        }
        String port = kv.getOrDefault("port.local", kv.getOrDefault("port.ifname", kv.getOrDefault("port.mac", "?")));
        return "hears " + name + " " + kv.getOrDefault("port.descr", port) + " (port ID " + port + ", ttl "
            + kv.getOrDefault("port.ttl", kv.getOrDefault("ttl", "?")) + ")";
    }

    @Override
    public void close() {
        for (Process p : running) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        for (Process p : running) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        running.clear();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind: nothing else depends on it
        }
    }
}
