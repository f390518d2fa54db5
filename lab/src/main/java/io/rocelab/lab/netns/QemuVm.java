package io.rocelab.lab.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One rdma_rxe VM of a lab: {@code interop/boot-vm.sh} (qemu under TCG, Debian's kernel, rxe0 on
 * eth0, eth0 a frame-over-UDP link on 127.0.0.1), one shell script, then power-off. Its run
 * directory, shared into the VM at {@code /host}, keeps the script's files, the console and qemu's
 * PID file after the run. {@link #kill()} stops qemu by that PID; after a {@code kill -9} of the lab
 * the next run or {@code rocelab lab clean} does ({@link NetnsCleaner}, by {@value #OWNER_VARIABLE}),
 * and at the latest boot-vm.sh's {@code timeout -s KILL}.
 */
public final class QemuVm {
    /** The environment variable that names the run a VM's processes belong to (its fabric namespace). */
    public static final String OWNER_VARIABLE = "ROCELAB_LAB_RUN";
    private final String host;
    private final Path runDir;
    private final Process process;

    private QemuVm(String host, Path runDir, Process process) {
        this.host = host;
        this.runDir = runDir;
        this.process = process;
    }

    /**
     * What boot-vm.sh is given.
     *
     * @param number        1..250, the VM's number (its console name)
     * @param ipv4          A.B.C.D/N on eth0
     * @param mac           eth0's MAC
     * @param routes        destinations routed on eth0
     * @param routerMac     the routing switch's MAC for them, or null to let the VM ARP
     * @param receivePort   UDP port qemu receives the VM's frames on
     * @param sendPort      UDP port qemu sends the VM's frames to
     * @param timeoutSeconds boot-vm.sh's hard limit
     */
    public record Boot(int number, String ipv4, String mac, List<String> routes, String routerMac, int receivePort,
                       int sendPort, long timeoutSeconds) {
    }

    /**
     * Starts the VM; returns at once.
     *
     * @param script the shell script run in the VM, in its run directory
     * @param owner  the run's fabric namespace: in the environment of boot-vm.sh and qemu as
     *               {@value #OWNER_VARIABLE}, by which {@link NetnsCleaner} finds a killed run's VMs
     * @throws NetnsException if boot-vm.sh cannot be started
     */
    public static QemuVm start(String host, Path interopDir, Path runDir, Boot b, String script, String owner) {
        try {
            Files.createDirectories(runDir);
            List<String> args = new ArrayList<>(List.of(interopDir.resolve("boot-vm.sh").toString(), "--run",
                runDir.toString(), "--timeout", Long.toString(b.timeoutSeconds()), "--ip", b.ipv4(), "--mac", b.mac()));
            if (!b.routes().isEmpty()) {
                args.addAll(List.of("--route", String.join(",", b.routes())));
                if (b.routerMac() != null) {
                    args.addAll(List.of("--router-mac", b.routerMac()));
                }
            }
            args.addAll(List.of(Integer.toString(b.number()), Integer.toString(b.receivePort()),
                Integer.toString(b.sendPort()), script));
            ProcessBuilder pb = new ProcessBuilder(args).redirectErrorStream(true)
                .redirectOutput(runDir.resolve("boot.log").toFile());
            pb.environment().put(OWNER_VARIABLE, owner);
            return new QemuVm(host, runDir, pb.start());
        } catch (IOException e) {
            throw new NetnsException("cannot start " + interopDir.resolve("boot-vm.sh") + " for " + host + ": "
                + e.getMessage(), e);
        }
    }

    /** @return the lab host it is */
    public String host() {
        return host;
    }

    /** @return its run directory */
    public Path runDir() {
        return runDir;
    }

    /** @return whether qemu (or boot-vm.sh before it) still runs */
    public boolean alive() {
        return process.isAlive();
    }

    /** Waits for the VM to power off; false if it still runs. */
    public boolean await(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS);
    }

    /** @return a file of its run directory, or "" */
    public String read(String file) {
        try {
            return Files.readString(runDir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** @return whether its run directory has {@code file} */
    public boolean has(String file) {
        return Files.exists(runDir.resolve(file));
    }

    /** @return the last {@code n} lines of its console */
    public String consoleTail(int n) {
        List<String> all = read("console.log").replace("\r", "").lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - n), all.size()));
    }

    /** Stops qemu (by its PID file, if that PID is a qemu) and boot-vm.sh. Idempotent. */
    public void kill() {
        String pid = read("qemu.pid").strip();
        if (!pid.isEmpty()) {
            try {
                ProcessHandle.of(Long.parseLong(pid))
                    .filter(h -> h.info().command().map(c -> c.contains("qemu")).orElse(false))
                    .ifPresent(h -> {
                        h.destroyForcibly();
                        h.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
                    });
            } catch (NumberFormatException e) {
                // half written: the process tree below still goes
            }
        }
        List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : all) {
            // SIGKILL is asynchronous: a run that says its VMs are stopped has seen them go
            h.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }
}
