package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's main command ({@code demo}, without its capture) and a two-process
 * {@code ib_write_bw} in UDP endpoint mode, run as the launcher runs them ({@code java -jar}, on the
 * jar this build made: failsafe runs this after {@code package}), on the Java runtimes people run:
 * this one without {@code sun.misc.Unsafe} ({@code -Dio.netty.noUnsafe=true}, how Netty runs on
 * Java 25 and later; on Java 17 even without direct buffers' addresses), and every other JDK
 * installed under {@code /usr/lib/jvm} (or named in {@code ROCELAB_TEST_JAVA_HOMES},
 * colon-separated), as it is. Each must finish with its results and print no warning. On Java 25,
 * buffers that need {@code Unsafe} once failed on the NIC's thread and the run hung; JCTools'
 * {@code Unsafe} queues printed JEP 498's warning on every start, and loading Netty's epoll library
 * JEP 472's (the jar's manifest now says {@code Enable-Native-Access: ALL-UNNAMED}).
 *
 * <p>Only the first kind runs where no other JDK is installed (said on standard error): Debian 12,
 * which CI installs from, packages Java 17 alone.
 */
@Timeout(600)
class JavaRuntimesIT {
    private static final Path JVM_DIR = Path.of("/usr/lib/jvm");
    private static final Path JAR = Path.of(System.getProperty("rocelab.jar", "target/rocelab.jar")).toAbsolutePath();

    @TempDir
    Path dir;

    /** One way to run the tools: a java executable and its options. */
    record Runtime(String name, Path java, List<String> options) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Runtime> runtimes() throws IOException {
        List<Runtime> all = new ArrayList<>();
        Path self = Path.of(System.getProperty("java.home"));
        all.add(new Runtime("java " + System.getProperty("java.version") + " without Unsafe",
                self.resolve("bin/java"), List.of("-Dio.netty.noUnsafe=true")));
        for (Path home : otherJavaHomes(self)) {
            all.add(new Runtime(home.getFileName() + " (" + releaseVersion(home) + ")", home.resolve("bin/java"),
                    List.of()));
        }
        if (all.size() == 1) {
            System.err.println("JavaRuntimesIT: no other JDK under " + JVM_DIR
                    + " or in ROCELAB_TEST_JAVA_HOMES: tested on this Java without Unsafe only");
        }
        return all.stream();
    }

    /** Installed JDKs other than the one running the tests, each once (links resolved). */
    private static List<Path> otherJavaHomes(Path self) throws IOException {
        List<Path> candidates = new ArrayList<>();
        String named = System.getenv("ROCELAB_TEST_JAVA_HOMES");
        if (named != null && !named.isBlank()) {
            for (String h : named.split(":")) {
                candidates.add(Path.of(h));
            }
        } else if (Files.isDirectory(JVM_DIR)) {
            try (Stream<Path> s = Files.list(JVM_DIR)) {
                s.sorted().forEach(candidates::add);
            }
        }
        List<Path> homes = new ArrayList<>();
        Path me = self.toRealPath();
        for (Path c : candidates) {
            if (!Files.isExecutable(c.resolve("bin/java")) || !Files.isRegularFile(c.resolve("release"))) {
                continue;
            }
            Path real = c.toRealPath();
            if (!real.equals(me) && !me.startsWith(real) && homes.stream().noneMatch(h -> h.equals(real))) {
                homes.add(real);
            }
        }
        return homes;
    }

    private static String releaseVersion(Path home) throws IOException {
        Matcher m = Pattern.compile("(?m)^JAVA_VERSION=\"([^\"]+)\"").matcher(Files.readString(home.resolve("release")));
        return m.find() ? "Java " + m.group(1) : "unknown version";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void theDemoRunsAndPrintsNoWarning(Runtime runtime) throws Exception {
        ToolProcesses tools = ToolProcesses.fromJar(dir, runtime.java(), runtime.options(), JAR);
        try {
            Process demo = tools.start("demo", "demo", "--no-capture");
            assertTrue(demo.waitFor(120, TimeUnit.SECONDS), "demo did not finish: " + tools.output("demo"));
            assertEquals(0, demo.exitValue(), tools.output("demo"));
            String out = tools.stdout("demo");
            String iterations = String.valueOf(io.rocelab.lab.demo.DemoOptions.DEFAULT_ITERATIONS);
            assertTrue(Pattern.compile("(?m)^ 65536\\s+" + iterations + "\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s*$")
                    .matcher(out).find(),
                    "ib_write_bw's result line: " + out);
            assertTrue(Pattern.compile("(?m)^ 2\\s+1000\\s+[0-9.]+").matcher(out).find(),
                    "ib_read_lat's result line: " + out);
            assertQuiet(tools, "demo");
        } finally {
            tools.stopAll();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void writeBandwidthBetweenTwoProcessesOverUdpEndpoints(Runtime runtime) throws Exception {
        ToolProcesses tools = ToolProcesses.fromJar(dir, runtime.java(), runtime.options(), JAR);
        String tcp = String.valueOf(ToolProcesses.freeTcpPort());
        try {
            Process server = tools.start("server", "ib_write_bw", "--udp-endpoint", "127.0.97.1", "-s", "65536",
                    "-n", "500", "-p", tcp);
            tools.awaitOutput(server, "server", "Waiting for client", 120);
            Process client = tools.start("client", "ib_write_bw", "--udp-endpoint", "127.0.97.2", "-s", "65536",
                    "-n", "500", "-p", tcp, "127.0.0.1");
            assertTrue(client.waitFor(180, TimeUnit.SECONDS), "client did not finish: " + tools.output("client"));
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "server did not finish: " + tools.output("server"));
            for (String side : List.of("client", "server")) {
                assertEquals(0, (side.equals("client") ? client : server).exitValue(), tools.output(side));
                Matcher m = Pattern.compile("(?m)^ 65536\\s+500\\s+[0-9.]+\\s+([0-9.]+)\\s+[0-9.]+\\s*$")
                        .matcher(tools.stdout(side));
                assertTrue(m.find(), side + "'s result line: " + tools.output(side));
                assertTrue(Double.parseDouble(m.group(1)) > 0, tools.output(side));
                assertQuiet(tools, side);
            }
        } finally {
            tools.stopAll();
        }
    }

    /** Nothing on standard error but the tools' own lines: no JVM warning, no exception. */
    private static void assertQuiet(ToolProcesses tools, String name) throws IOException {
        String err = tools.stderr(name);
        assertFalse(err.contains("WARNING"), name + " printed a warning: " + err);
        assertFalse(err.contains("Exception"), name + " printed an exception: " + err);
    }
}
