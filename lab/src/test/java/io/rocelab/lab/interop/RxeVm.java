package io.rocelab.lab.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One Linux Soft-RoCE VM started by {@code interop/boot-vm.sh}: qemu (TCG) with Debian's kernel,
 * rdma_rxe on eth0, a {@code -netdev socket,udp=} link on 127.0.0.1, one command, then power-off.
 * Its run directory (shared into the VM at {@code /host}) holds the command's output
 * ({@code cmd.out}, {@code cmd.rc}, and whatever files the command writes), the serial console and
 * qemu's PID file, by which {@link #kill()} stops it.
 */
final class RxeVm {
    private final String name;
    private final Path runDir;
    private final Process process;

    private RxeVm(String name, Path runDir, Process process) {
        this.name = name;
        this.runDir = runDir;
        this.process = process;
    }

    /**
     * Starts {@code boot-vm.sh}; returns at once (the VM boots in the background).
     *
     * @param interopDir     the project's {@code interop/} directory
     * @param workDir        the harness's work directory (image, run directories)
     * @param name           run directory name under {@code workDir/run}
     * @param host           VM number: 10.77.0.HOST, fd77::HOST
     * @param receivePort    UDP port on which qemu receives the VM's frames
     * @param sendPort       UDP port to which qemu sends the VM's frames
     * @param timeoutSeconds hard limit after which boot-vm.sh kills qemu
     * @param command        shell command run in the VM (busybox sh, cwd = the run directory)
     */
    static RxeVm start(Path interopDir, Path workDir, String name, int host, int receivePort, int sendPort,
                       int timeoutSeconds, String command) throws IOException {
        return start(interopDir, workDir, name, host, receivePort, sendPort, timeoutSeconds, command, null);
    }

    /**
     * Starts {@code boot-vm.sh} with a second NIC for the tools' TCP exchange with this host
     * ({@code --oob}): the VM reaches the host's 127.0.0.1 at 10.0.2.2, and each forward
     * {@code HOSTPORT:GUESTPORT} leads 127.0.0.1:HOSTPORT to a server tool in the VM.
     *
     * @param oobForwards {@code HOSTPORT:GUESTPORT[,...]} ("" for the NIC without forwards), or
     *                    null for no second NIC
     */
    static RxeVm start(Path interopDir, Path workDir, String name, int host, int receivePort, int sendPort,
                       int timeoutSeconds, String command, String oobForwards) throws IOException {
        Path run = workDir.resolve("run").resolve(name);
        Files.createDirectories(run);
        for (String stale : List.of("cmd.out", "cmd.rc", "console.log", "qemu.pid", "boot.log")) {
            Files.deleteIfExists(run.resolve(stale));
        }
        try (var files = Files.list(run)) {
            for (Path p : files.filter(f -> f.getFileName().toString().matches(".*\\.(out|rc|ready)")).toList()) {
                Files.delete(p);
            }
        }
        List<String> args = new ArrayList<>(List.of(interopDir.resolve("boot-vm.sh").toString(),
                "--run", run.toString(), "--timeout", Integer.toString(timeoutSeconds)));
        if (oobForwards != null) {
            args.add("--oob");
            args.add(oobForwards);
        }
        args.addAll(List.of(Integer.toString(host), Integer.toString(receivePort), Integer.toString(sendPort), command));
        ProcessBuilder pb = new ProcessBuilder(args);
        pb.environment().put("ROCELAB_INTEROP_WORK", workDir.toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(run.resolve("boot.log").toFile());
        return new RxeVm(name, run, pb.start());
    }

    String name() {
        return name;
    }

    Path runDir() {
        return runDir;
    }

    /** Waits for the VM to power off (or for its hard timeout); false if it is still running. */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        return process.waitFor(timeout, unit);
    }

    /** The command's exit code, or empty when the VM never got to write it. */
    Optional<Integer> exitCode() {
        String rc = read("cmd.rc").strip();
        try {
            return rc.isEmpty() ? Optional.empty() : Optional.of(Integer.parseInt(rc));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A file the command wrote in its working directory, or "" if it does not exist. */
    String read(String file) {
        try {
            return Files.readString(runDir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last {@code lines} lines of the serial console (carriage returns removed). */
    String consoleTail(int lines) {
        List<String> all = read("console.log").replace("\r", "").lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** The console's "ROCELAB-VM:" stage lines, which carry the guest's uptime. */
    List<String> stages() {
        List<String> out = new ArrayList<>();
        for (String line : read("console.log").replace("\r", "").lines().toList()) {
            int at = line.indexOf("ROCELAB-VM:");
            if (at >= 0) {
                out.add(line.substring(at));
            }
        }
        return out;
    }

    /**
     * Stops qemu by the PID in its PID file (checking that the PID still belongs to a qemu), and
     * the boot script. Safe to call at any time, also twice.
     */
    void kill() {
        String pid = read("qemu.pid").strip();
        if (!pid.isEmpty()) {
            try {
                ProcessHandle.of(Long.parseLong(pid))
                        .filter(h -> h.info().command().map(c -> c.contains("qemu")).orElse(false))
                        .ifPresent(ProcessHandle::destroyForcibly);
            } catch (NumberFormatException e) {
                // a half-written PID file: the process below is still stopped
            }
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Everything useful after a failure: exit code, command output, console tail. */
    String diagnostics() {
        return "---- " + name + " (" + runDir + "): command exit " + exitCode().map(String::valueOf).orElse("none")
                + "\n---- " + name + " cmd.out:\n" + read("cmd.out")
                + "\n---- " + name + " console (tail):\n" + consoleTail(40)
                + "\n---- " + name + " boot.log:\n" + read("boot.log");
    }
}
