package io.rocelab.lab.netns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the project's {@code interop/} scripts are ({@code boot-vm.sh} boots an rxe-vm host): the
 * {@code rocelab.interop} system property or {@code $ROCELAB_INTEROP}, else the first {@code interop/}
 * with a {@code boot-vm.sh} in the working directory, the jar's directory or one of their parents.
 */
public final class InteropDir {
    private InteropDir() {
    }

    /**
     * @return the directory, once qemu is known to be installed too
     * @throws NetnsException saying where it looked, or what is missing
     */
    public static Path find() {
        Path dir = locate();
        if (Commands.find("qemu-system-x86_64") == null) {
            throw new NetnsException("an rxe-vm host needs qemu-system-x86_64, which is not installed (sudo "
                + dir.resolve("install-deps.sh") + " installs what the VMs need)");
        }
        return dir;
    }

    private static Path locate() {
        String given = System.getProperty("rocelab.interop", System.getenv("ROCELAB_INTEROP"));
        if (given != null && !given.isBlank()) {
            Path p = Path.of(given).toAbsolutePath().normalize();
            if (!Files.isExecutable(p.resolve("boot-vm.sh"))) {
                throw new NetnsException("an rxe-vm host needs interop/boot-vm.sh: " + p + " has none");
            }
            return p;
        }
        List<Path> starts = new ArrayList<>();
        starts.add(Path.of("").toAbsolutePath());
        try {
            starts.add(Path.of(InteropDir.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            // no code source: the working directory is enough
        }
        for (Path start : starts) {
            for (Path d = start; d != null; d = d.getParent()) {
                Path p = d.resolve("interop");
                if (Files.isExecutable(p.resolve("boot-vm.sh"))) {
                    return p.normalize();
                }
            }
        }
        throw new NetnsException("an rxe-vm host needs the project's interop/boot-vm.sh: none in " + starts.get(0)
            + " or its parents; say where with ROCELAB_INTEROP=DIR");
    }
}
