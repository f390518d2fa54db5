package io.rocelab.lab.netns;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Removes what netns runs left: each namespace named {@value NetnsNames#PREFIX}..., after killing
 * the processes in it (iperf3, tshark); deleting a namespace deletes the veth ends in it, and so
 * their pairs. Interfaces named with the prefix in this namespace (none a run makes) go too.
 */
public final class NetnsCleaner {
    private NetnsCleaner() {
    }

    /** @return every namespace of every netns run, running or not */
    public static List<String> namespaces() {
        List<String> out = new ArrayList<>();
        String list = Commands.run(List.of(ip(), "netns", "list"));
        for (String line : list.lines().toList()) {
            String name = line.trim().split("\\s+")[0];
            if (!name.isEmpty() && NetnsNames.ours(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /** @return whether the run that made {@code namespace} is gone (killed, crashed) */
    public static boolean orphaned(String namespace) {
        long pid = NetnsNames.ownerPid(namespace);
        return pid <= 0 || ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    /**
     * Removes the namespaces {@code which} picks, their processes first.
     *
     * @return one line per thing removed
     */
    public static List<String> clean(Predicate<String> which) {
        List<String> removed = new ArrayList<>();
        for (String ns : namespaces()) {
            if (!which.test(ns)) {
                continue;
            }
            removed.addAll(killProcesses(ns));
            Commands.Result r = Commands.attempt(List.of(ip(), "netns", "del", ns));
            removed.add(r.exit() == 0 ? "namespace " + ns : "namespace " + ns + " NOT removed: "
                + Commands.firstLine(r.output()));
        }
        removed.addAll(killVms(which));
        String links = Commands.attempt(List.of(ip(), "-o", "link", "show")).output();
        for (String line : links.lines().toList()) {
            String[] f = line.split(":\\s+", 3);
            if (f.length >= 2) {
                String name = f[1].split("@")[0];
                if (name.startsWith(NetnsNames.PREFIX) && which.test(name)) {
                    Commands.attempt(List.of(ip(), "link", "del", name));
                    removed.add("interface " + name);
                }
            }
        }
        return removed;
    }

    /** Kills every process in {@code ns}, the way they were started (SIGKILL: nothing of theirs is kept). */
    static List<String> killProcesses(String ns) {
        List<String> out = new ArrayList<>();
        String pids = Commands.attempt(List.of(ip(), "netns", "pids", ns)).output();
        for (String p : pids.lines().map(String::trim).filter(l -> l.matches("\\d+")).toList()) {
            long pid = Long.parseLong(p);
            ProcessHandle.of(pid).ifPresent(h -> {
                String what = h.info().command().map(c -> c.substring(c.lastIndexOf('/') + 1)).orElse("?");
                if (h.destroyForcibly()) {
                    out.add("process " + pid + " (" + what + ") in " + ns);
                }
                h.onExit().orTimeout(5, java.util.concurrent.TimeUnit.SECONDS).exceptionally(e -> null).join();
            });
        }
        return out;
    }

    /**
     * Kills the processes of the rxe-vm hosts (boot-vm.sh, its {@code timeout}, qemu) whose run
     * {@code which} picks, by the run they carry in their environment ({@link QemuVm#OWNER_VARIABLE}).
     */
    static List<String> killVms(Predicate<String> which) {
        List<String> out = new ArrayList<>();
        String key = QemuVm.OWNER_VARIABLE + "=";
        ProcessHandle self = ProcessHandle.current();
        try (var procs = java.nio.file.Files.list(java.nio.file.Path.of("/proc"))) {
            for (java.nio.file.Path p : procs.toList()) {
                String name = p.getFileName().toString();
                if (!name.matches("\\d+") || Long.parseLong(name) == self.pid()) {
                    continue;
                }
                String owner = null;
                try {
                    for (String v : new String(java.nio.file.Files.readAllBytes(p.resolve("environ")),
                        java.nio.charset.StandardCharsets.UTF_8).split("\0")) {
                        if (v.startsWith(key)) {
                            owner = v.substring(key.length());
                        }
                    }
                } catch (java.io.IOException | SecurityException e) {
                    continue; // gone, or not ours to read
                }
                if (owner == null || !which.test(owner)) {
                    continue;
                }
                long pid = Long.parseLong(name);
                String run = owner;
                ProcessHandle.of(pid).ifPresent(h -> {
                    String what = h.info().command().map(c -> c.substring(c.lastIndexOf('/') + 1)).orElse("?");
                    if (h.destroyForcibly()) {
                        out.add("process " + pid + " (" + what + ") of " + run + "'s VMs");
                    }
                    h.onExit().orTimeout(5, java.util.concurrent.TimeUnit.SECONDS).exceptionally(e -> null).join();
                });
            }
        } catch (java.io.IOException e) {
            // no /proc: nothing to find
        }
        return out;
    }

    private static String ip() {
        return Commands.require("ip", "iproute2");
    }
}
