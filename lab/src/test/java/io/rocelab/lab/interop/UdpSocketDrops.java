package io.rocelab.lab.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Watches the kernel's per-socket drop counters ({@code /proc/net/udp[6]}, last column) of some UDP
 * ports on 127.0.0.1 while a run lasts: a datagram dropped there is a frame lost between the relay
 * and a qemu (its receive buffer was full), which rxe then repairs by retransmission. Diagnostic
 * only: qemu's sockets vanish when the VMs power off, so a background thread samples them and keeps
 * the highest count seen per port.
 */
final class UdpSocketDrops implements AutoCloseable {
    /** qemu's sockets are IPv4; Java's NIO datagram sockets are dual-stack IPv6 ones (::ffff:127.0.0.1). */
    private static final List<Path> PROC = List.of(Path.of("/proc/net/udp"), Path.of("/proc/net/udp6"));

    private final Map<Integer, String> names;
    private final Map<Integer, Long> drops = new TreeMap<>();
    private final Thread sampler;
    private volatile boolean running = true;

    /**
     * @param portNames local UDP port on 127.0.0.1 to a name for the report
     */
    UdpSocketDrops(Map<Integer, String> portNames) {
        this.names = Map.copyOf(portNames);
        this.sampler = new Thread(this::loop, "interop-udp-drops");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void loop() {
        while (running) {
            sample();
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample() {
        for (Path file : PROC) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            } catch (IOException e) {
                continue;
            }
            for (String line : lines) {
                sample(line.trim().split("\\s+"));
            }
        }
    }

    /** One socket line: sl local_address rem_address st tx_queue:rx_queue ... inode ref pointer drops. */
    private void sample(String[] f) {
        if (f.length < 13 || !f[1].contains(":") || !f[1].substring(0, f[1].indexOf(':')).endsWith("0100007F")) {
            return;
        }
        try {
            int port = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
            if (names.containsKey(port)) {
                long d = Long.parseLong(f[f.length - 1]);
                synchronized (drops) {
                    drops.merge(port, d, Math::max);
                }
            }
        } catch (NumberFormatException e) {
            // the header line
        }
    }

    /** "name (port): N dropped" for every watched socket that was seen. */
    String report() {
        StringBuilder s = new StringBuilder();
        synchronized (drops) {
            drops.forEach((port, d) -> s.append(s.length() == 0 ? "" : ", ").append(names.get(port)).append(" (")
                    .append(port).append("): ").append(d));
        }
        return s.length() == 0 ? "no socket seen" : s.toString();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join(2000);
        sample();
    }
}
