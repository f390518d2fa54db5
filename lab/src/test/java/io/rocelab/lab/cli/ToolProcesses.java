package io.rocelab.lab.cli;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@code rocelab} launched as processes of their own, on a given Java, from this test run's class
 * path or from a jar; each one's standard output and error go to NAME.out and NAME.err in a
 * directory, which is also their working directory.
 *
 * <p>A test class that starts them registers one as an extension, which stops every process after each
 * test: {@code @TempDir Path dir; @RegisterExtension final ToolProcesses tools = ToolProcesses.in(() -> dir);}
 * (the directory is read when the first process starts, after JUnit has made it).
 */
public final class ToolProcesses implements AfterEachCallback {
    private final Supplier<Path> dirs;
    private Path dir;
    private final Path java;
    private final List<String> jvmOptions;
    /** What follows the options: the class path and main class, or {@code -jar} and the jar. */
    private final List<String> program;
    private final List<Process> started = new ArrayList<>();
    private final java.util.Map<String, Long> pids = new java.util.HashMap<>();

    private ToolProcesses(Supplier<Path> dirs, Path java, List<String> jvmOptions, List<String> program) {
        this.dirs = dirs;
        this.java = java;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.program = List.copyOf(program);
    }

    /** On the Java running the tests, from its class path, with no extra options. */
    public ToolProcesses(Path dir) {
        this(() -> dir);
    }

    private ToolProcesses(Supplier<Path> dirs) {
        this(dirs, Path.of(System.getProperty("java.home"), "bin", "java"), List.of(),
            List.of("-cp", System.getProperty("java.class.path"), "io.rocelab.lab.cli.Rocelab"));
    }

    /**
     * On the Java running the tests, from its class path, in the directory {@code dir} gives when the
     * first process starts; registered as an extension, it stops them all after each test.
     */
    public static ToolProcesses in(Supplier<Path> dir) {
        return new ToolProcesses(dir);
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        stopAll();
    }

    private Path dir() {
        if (dir == null) {
            dir = dirs.get();
        }
        return dir;
    }

    /**
     * As {@code java OPTIONS -jar JAR}, the way the {@code rocelab} launcher runs it.
     *
     * @param java       the {@code java} executable
     * @param jvmOptions options before {@code -jar}, e.g. system properties
     */
    public static ToolProcesses fromJar(Path dir, Path java, List<String> jvmOptions, Path jar) {
        return new ToolProcesses(() -> dir, java, jvmOptions, List.of("-jar", jar.toString()));
    }

    /** Starts {@code rocelab ARGS} in the output directory. */
    public Process start(String name, String... args) throws IOException {
        return startCommand(name, command(args));
    }

    /** The command line of {@code rocelab ARGS} (to run with a prefix, e.g. {@code ip netns exec NS}). */
    public List<String> command(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(jvmOptions);
        cmd.addAll(program);
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** {@code rocelab ARGS} run in network namespace {@code ns} ({@code ip netns exec}). */
    public List<String> commandIn(String ns, String... args) {
        List<String> cmd = new ArrayList<>(List.of(HostCommands.find("ip"), "netns", "exec", ns));
        cmd.addAll(command(args));
        return cmd;
    }

    /** Starts any command in the output directory, its output kept under NAME; {@link #stopAll} kills it. */
    public Process startCommand(String name, List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd)
                .directory(dir().toFile())
                .redirectOutput(dir().resolve(name + ".out").toFile())
                .redirectError(dir().resolve(name + ".err").toFile())
                .start();
        started.add(p);
        pids.put(name, p.pid());
        return p;
    }

    /** @return the process id of the process started as NAME */
    public long pidOf(String name) {
        return pids.get(name);
    }

    /** What NAME printed so far on standard output. */
    public String stdout(String name) throws IOException {
        return Files.readString(dir().resolve(name + ".out"), StandardCharsets.UTF_8);
    }

    /** What NAME printed so far on standard error. */
    public String stderr(String name) throws IOException {
        return Files.readString(dir().resolve(name + ".err"), StandardCharsets.UTF_8);
    }

    /** Both, for a failure message. */
    public String output(String name) throws IOException {
        return stdout(name) + "\n--- stderr\n" + stderr(name);
    }

    /** Waits until NAME prints {@code text} on standard output; fails if it ends or the time runs out first. */
    public void awaitOutput(Process p, String name, String text, int seconds) throws Exception {
        await(p, name, text, seconds, false);
    }

    /** Like {@link #awaitOutput}, for {@code text} on either stream (tshark says it is capturing on stderr). */
    public void awaitText(Process p, String name, String text, int seconds) throws Exception {
        await(p, name, text, seconds, true);
    }

    private void await(Process p, String name, String text, int seconds, boolean eitherStream) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            if ((eitherStream ? output(name) : stdout(name)).contains(text)) {
                return;
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(name + " did not print '" + text + "': " + output(name));
    }

    /** Kills whatever is still running. */
    public void stopAll() throws InterruptedException {
        for (Process p : started) {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    public static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Whether this process ignores SIGINT, as a shell's background job does (and so every process it
     * starts): a JVM started from it then gets no Ctrl-C, as `rocelab switch &` in a script would not.
     */
    public static boolean sigintIgnored() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("SigIgn:")) {
                return (Long.parseLong(l.substring(7).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }
}
