package io.rocelab.lab.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Where the interop harness lives and whether this machine can run it.
 *
 * <p>Without qemu, Debian's kernel with rdma_rxe or the RDMA tools the harness cannot run: an
 * interop test then skips <em>loudly</em> (a "SKIPPED ... interop NOT checked" line on stderr and
 * a failed JUnit assumption in every test), except under {@code CI=true}, where it fails, because
 * CI installs them ({@code interop/install-deps.sh}).
 */
public final class InteropEnvironment {
    private InteropEnvironment() {
    }

    /** The project root (surefire passes it as {@code rocelab.root}). */
    static Path projectRoot() {
        return Path.of(System.getProperty("rocelab.root", "..")).toAbsolutePath().normalize();
    }

    static Path interopDir() {
        return projectRoot().resolve("interop");
    }

    /** {@code $ROCELAB_INTEROP_WORK}, or {@code <project>/target/interop}, as the scripts use. */
    static Path workDir() {
        String env = System.getenv("ROCELAB_INTEROP_WORK");
        return env != null && !env.isBlank() ? Path.of(env).toAbsolutePath()
                : projectRoot().resolve("target").resolve("interop");
    }

    /** Why the harness cannot run here, or empty when it can. */
    public static Optional<String> missing() {
        List<String> reasons = new ArrayList<>();
        for (String script : List.of("build-initramfs.sh", "boot-vm.sh")) {
            if (!Files.isExecutable(interopDir().resolve(script))) {
                reasons.add(interopDir().resolve(script) + " is missing or not executable");
            }
        }
        for (String tool : List.of("qemu-system-x86_64", "busybox", "ibv_rc_pingpong", "ib_write_bw", "rdma",
                "modprobe", "cpio")) {
            if (onPath(tool).isEmpty()) {
                reasons.add(tool + " is not installed");
            }
        }
        if (!kernelWithRxe()) {
            reasons.add("no /boot/vmlinuz-* with an rdma_rxe module in /lib/modules (linux-image-amd64)");
        }
        return reasons.isEmpty() ? Optional.empty()
                : Optional.of(String.join("; ", reasons) + " (run interop/install-deps.sh as root)");
    }

    /**
     * Says loudly when the harness cannot run here, or fails under CI=true.
     *
     * @param what the test class, for the message
     * @return why the tests must be skipped (pass it to {@link #assumeRunnable}), or empty
     * @throws AssertionError under CI=true when the harness cannot run
     */
    static Optional<String> checkOrAnnounceSkip(String what) {
        Optional<String> reason = missing();
        if (reason.isEmpty()) {
            return reason;
        }
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(what + ": cannot run the rxe interop harness, and CI=true requires it: "
                    + reason.get());
        }
        System.err.println("SKIPPED " + what + ": interop NOT checked: " + reason.get());
        return reason;
    }

    /** A JUnit assumption: the test is reported skipped when {@code skipReason} is present. */
    static void assumeRunnable(Optional<String> skipReason) {
        Assumptions.assumeTrue(skipReason.isEmpty(), () -> "interop NOT checked: " + skipReason.orElse(""));
    }

    private static Optional<Path> onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        List<String> dirs = new ArrayList<>(List.of(path.split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin"));
        for (String dir : dirs) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static boolean kernelWithRxe() {
        Path modules = Path.of("/lib/modules");
        if (!Files.isDirectory(modules)) {
            return false;
        }
        try (Stream<Path> versions = Files.list(modules)) {
            for (Path v : versions.toList()) {
                if (!Files.isReadable(Path.of("/boot", "vmlinuz-" + v.getFileName()))) {
                    continue;
                }
                Path rxe = v.resolve("kernel/drivers/infiniband/sw/rxe");
                if (Files.isDirectory(rxe)) {
                    try (Stream<Path> files = Files.list(rxe)) {
                        if (files.anyMatch(f -> f.getFileName().toString().startsWith("rdma_rxe.ko"))) {
                            return true;
                        }
                    }
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /**
     * Distinct free UDP ports on 127.0.0.1 from the kernel's ephemeral range, for the qemu side of
     * each link (the relay binds its own ports with port 0). A port is free when asked; the small
     * window before qemu binds it is accepted.
     */
    static int[] freeUdpPorts(int count) {
        Set<Integer> seen = new HashSet<>();
        List<DatagramSocket> held = new ArrayList<>();
        try {
            while (seen.size() < count) {
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                held.add(s);
                seen.add(s.getLocalPort());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free UDP ports on 127.0.0.1", e);
        } finally {
            held.forEach(DatagramSocket::close);
        }
        return seen.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Distinct free TCP ports on 127.0.0.1, for qemu's forwards to server tools in a VM and for
     * the servers this JVM runs for clients in a VM. A port is free when asked; the window before
     * qemu or the test binds it is accepted.
     */
    static int[] freeTcpPorts(int count) {
        Set<Integer> seen = new HashSet<>();
        List<java.net.ServerSocket> held = new ArrayList<>();
        try {
            while (seen.size() < count) {
                java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                seen.add(s.getLocalPort());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free TCP ports on 127.0.0.1", e);
        } finally {
            for (java.net.ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException e) {
                    // a port we only looked at
                }
            }
        }
        return seen.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Takes the work directory's lock, so that two test runs on one machine (two checkouts sharing
     * {@code ROCELAB_INTEROP_WORK}, or a run by hand beside a build) do not share run directories.
     *
     * @param maxWaitSeconds how long to wait for another run to finish
     * @return the lock; release it (close its channel) when done
     */
    static FileLock lockWorkDir(long maxWaitSeconds) throws IOException, InterruptedException {
        Files.createDirectories(workDir());
        FileChannel channel = FileChannel.open(workDir().resolve("interop.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxWaitSeconds);
        boolean announced = false;
        try {
            while (true) {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    return lock;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("another interop run has held " + workDir().resolve("interop.lock")
                            + " for more than " + maxWaitSeconds + " s");
                }
                if (!announced) {
                    System.err.println("[interop] waiting for another interop run to finish ("
                            + workDir().resolve("interop.lock") + ")");
                    announced = true;
                }
                Thread.sleep(500);
            }
        } catch (IOException | RuntimeException | InterruptedException | Error e) {
            channel.close();
            throw e;
        }
    }

    /** Runs {@code interop/build-initramfs.sh} (returns at once when the image is up to date). */
    static String buildImage(long timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(interopDir().resolve("build-initramfs.sh").toString());
        pb.environment().put("ROCELAB_INTEROP_WORK", workDir().toString());
        pb.redirectErrorStream(true);
        Files.createDirectories(workDir());
        Path log = workDir().resolve("build-initramfs.log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("build-initramfs.sh took more than " + timeoutSeconds + " s:\n"
                    + Files.readString(log));
        }
        String out = Files.readString(log);
        if (p.exitValue() != 0) {
            throw new AssertionError("build-initramfs.sh failed (exit " + p.exitValue() + "):\n" + out);
        }
        return out.strip();
    }
}
