package io.rocelab.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.testkit.ByteCursor;
import io.rocelab.perftest.testkit.CapturedPeer;
import io.rocelab.perftest.testkit.Pcap;
import io.rocelab.perftest.testkit.TcpConversation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * rocelab's sessions against real perftest, replayed from the captures: the peer's bytes are the
 * ones real perftest sent, and rocelab must answer with messages of the sizes, and in the order,
 * real perftest answered with — otherwise the replay stalls or finds bytes left over.
 */
@Timeout(60)
class AgainstRealPerftestTest {
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    static Stream<Arguments> captures() {
        return Stream.of(
                Arguments.of(TestKind.WRITE_BW, "write_bw.pcap", new String[] {"-F", "-x", "1", "-s", "4096", "-n", "100"},
                        " 4096       100              6.27               5.65   \t\t   0.001447\n"),
                Arguments.of(TestKind.READ_BW, "read_bw.pcap", new String[] {"-F", "-x", "1", "-s", "4096", "-n", "100"},
                        " 4096       100              11.96              11.05  \t\t   0.002829\n"),
                Arguments.of(TestKind.ATOMIC_BW, "atomic_bw.pcap", new String[] {"-F", "-x", "1", "-n", "20"},
                        " 8          20               0.01               0.01   \t\t   0.000945\n"),
                Arguments.of(TestKind.SEND_BW, "send_bw.pcap", new String[] {"-F", "-x", "1", "-s", "4096", "-n", "100"},
                        null),
                Arguments.of(TestKind.WRITE_LAT, "write_lat.pcap", new String[] {"-F", "-x", "1", "-s", "64", "-n", "20"},
                        null));
    }

    private static KeyRecord firstRecord(byte[] stream) {
        ByteCursor c = new ByteCursor(stream);
        c.take(16 + 4 + 4 + 2);
        return KeyRecord.decode(c.take(KeyRecord.WIRE_SIZE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void ourServerServesTheRealClient(TestKind kind, String file, String[] args, String clientLine) throws Exception {
        TcpConversation real = TcpConversation.of(Pcap.read(file), OobServer.DEFAULT_PORT);
        FakeEngine engine = new FakeEngine("10.77.0.10", 0x11, 0x100000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            PerftestOptions options = SessionPair.options(kind, args);
            Future<Integer> server = pool.submit(() -> new PerftestSession(options, engine,
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                    Duration.ofSeconds(20)).listener(listener).run());
            List<byte[]> answers;
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.port())) {
                answers = new CapturedPeer(real, true).play(s);
            }
            assertEquals(0, server.get(20, TimeUnit.SECONDS), err.toString(StandardCharsets.UTF_8));
            assertEquals(real.serverWriteSizes(), answers.stream().map(b -> b.length).toList());
        }
        // the session connected to what the real client announced
        assertEquals(List.of(firstRecord(real.clientBytes())), engine.remote);
        String text = out.toString(StandardCharsets.UTF_8);
        if (clientLine != null) {
            assertTrue(text.contains(clientLine), "the server prints the real client's report:\n" + text);
        }
        assertTrue(text.contains(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:11\n"), text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void ourClientTalksToTheRealServer(TestKind kind, String file, String[] args, String ignored) throws Exception {
        TcpConversation real = TcpConversation.of(Pcap.read(file), OobServer.DEFAULT_PORT);
        FakeEngine engine = new FakeEngine("10.77.0.11", 0x11, 0x200000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String[] clientArgs = Stream.concat(Stream.of(args),
                    Stream.of("127.0.0.1", "-p", String.valueOf(listener.getLocalPort()))).toArray(String[]::new);
            PerftestOptions options = SessionPair.options(kind, clientArgs);
            Future<List<byte[]>> peer = pool.submit(() -> {
                try (Socket s = listener.accept()) {
                    return new CapturedPeer(real, false).play(s);
                }
            });
            int status = new PerftestSession(options, engine, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), Duration.ofSeconds(20)).run();
            assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
            List<byte[]> sent = peer.get(20, TimeUnit.SECONDS);
            assertEquals(real.clientWriteSizes(), sent.stream().map(b -> b.length).toList());
        }
        KeyRecord server = firstRecord(real.serverBytes());
        assertEquals(List.of(server), engine.remote);
        String text = out.toString(StandardCharsets.UTF_8);
        // %#06x: "0x" and at least four digits, so a PSN of 0x0391be prints as 0x391be
        assertTrue(text.contains(" remote address: LID 0000 QPN 0x0011 PSN 0x"
                + Integer.toHexString(server.psn()) + (kind == TestKind.READ_BW ? " OUT 0x80" : "")), text);
        assertTrue(text.contains(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:10\n"), text);
        assertTrue(text.contains(" GID index       : 1\n"), text);
    }
}
