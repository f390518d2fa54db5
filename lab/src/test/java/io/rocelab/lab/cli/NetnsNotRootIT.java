package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab run --mode netns} and {@code lab clean} by a user who is not root, as the launcher runs
 * them ({@code java -jar} on the jar this build made; failsafe runs this after {@code package}): one
 * line saying root is needed, exit code 2, nothing made. As root the test drops to user nobody
 * (setpriv) to be that user; as anyone else it is that user already.
 */
class NetnsNotRootIT {
    private static final Path JAR = Path.of(System.getProperty("rocelab.jar", "target/rocelab.jar")).toAbsolutePath();
    private static final Path LAB = Path.of("..", "labs", "roce-tcp-convergence.yaml").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private String[] run(String... args) throws Exception {
        // a directory user nobody can read: the jar and the lab file, copied
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path jar = Files.copy(JAR, dir.resolve("rocelab.jar"), StandardCopyOption.REPLACE_EXISTING);
        Path lab = Files.copy(LAB, dir.resolve("lab.yaml"), StandardCopyOption.REPLACE_EXISTING);
        for (Path p : List.of(jar, lab)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        }
        List<String> cmd = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            String setpriv = HostCommands.find("setpriv");
            assertTrue(setpriv != null, "setpriv (util-linux) drops root for this test");
            cmd.addAll(List.of(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        for (String a : args) {
            cmd.add(a.equals("LAB") ? lab.toString() : a);
        }
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new String[] {Integer.toString(p.exitValue()), out, err};
    }

    @Test
    void netnsRunWithoutRootIsOneLineAndExitTwo() throws Exception {
        String[] r = run("lab", "run", "LAB", "--mode", "netns", "--out", dir.resolve("out").toString());
        assertEquals("2", r[0], r[1] + r[2]);
        assertEquals("", r[1]);
        assertEquals(1, r[2].lines().count(), r[2]);
        assertTrue(r[2].matches("(?s).*lab run --mode netns needs root: it makes network namespaces and veth pairs "
            + "\\(run it with sudo; you are uid \\d+\\)\\s*"), r[2]);
        assertTrue(!Files.exists(dir.resolve("out")), "nothing written");
    }

    @Test
    void cleanWithoutRootIsOneLineAndExitTwo() throws Exception {
        String[] r = run("lab", "clean");
        assertEquals("2", r[0], r[1] + r[2]);
        assertEquals(1, r[2].lines().count(), r[2]);
        assertTrue(r[2].contains("lab clean needs root"), r[2]);
    }
}
