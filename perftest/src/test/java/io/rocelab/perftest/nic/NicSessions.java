package io.rocelab.perftest.nic;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.run.PerftestSession;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server and a client session of one tool in this JVM, each on its own soft NIC, the NICs joined
 * by an in-process link, the perftest exchange over TCP on 127.0.0.1.
 */
final class NicSessions {
    /** One side: its engine (kept after the run for its memory and counters), output and status. */
    static final class Side {
        NicEngine engine;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = -1;

        String out() {
            return out.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return err.toString(StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "status " + status + "\n--- out\n" + out() + "--- err\n" + err();
        }
    }

    final Side server = new Side();
    final Side client = new Side();

    static PerftestOptions options(TestKind kind, List<String> args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PerftestTool.Parsed p = PerftestTool.parse(kind, args.toArray(new String[0]),
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        if (p.options() == null) {
            throw new AssertionError("refused: " + err);
        }
        return p.options();
    }

    /** Runs both sides to the end; {@code args} are the shared flags (the client adds the host). */
    static NicSessions run(TestKind kind, String... args) throws Exception {
        return run(kind, engine -> { }, args);
    }

    /** The same, with the client's engine set up by {@code clientSetup} before the run. */
    static NicSessions run(TestKind kind, java.util.function.Consumer<NicEngine> clientSetup, String... args)
            throws Exception {
        NicSessions pair = new NicSessions();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (InProcessFabric fabric = InProcessFabric.create();
             OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            NicEngineFactory engines = NicEngineFactory.inProcess(fabric);
            PerftestOptions serverOptions = options(kind, List.of(args));
            List<String> clientArgs = new ArrayList<>(List.of(args));
            clientArgs.add("127.0.0.1");
            clientArgs.add("-p");
            clientArgs.add(String.valueOf(listener.port()));
            PerftestOptions clientOptions = options(kind, clientArgs);
            pair.server.engine = engines.create(serverOptions);
            pair.client.engine = engines.create(clientOptions);
            clientSetup.accept(pair.client.engine);
            Future<Integer> s = pool.submit(() -> session(pair.server, serverOptions).listener(listener).run());
            Future<Integer> c = pool.submit(() -> session(pair.client, clientOptions).run());
            pair.client.status = c.get(90, TimeUnit.SECONDS);
            pair.server.status = s.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return pair;
    }

    /**
     * The same, each NIC's port seen through {@code tap} (given whether it is the server's): the
     * engines are made as {@link NicEngineFactory#inProcess} makes them, on the taps.
     */
    static NicSessions runTapped(TestKind kind, java.util.function.BiFunction<Boolean, FramePort, FramePort> tap,
                                 String... args) throws Exception {
        return runTapped(kind, tap, List.of(), args);
    }

    /** The same, with flags only the client gets (after the shared ones, so they win). */
    static NicSessions runTapped(TestKind kind, java.util.function.BiFunction<Boolean, FramePort, FramePort> tap,
                                 List<String> clientOnly, String... args) throws Exception {
        NicSessions pair = new NicSessions();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (InProcessFabric fabric = InProcessFabric.create();
             OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            PerftestOptions serverOptions = options(kind, List.of(args));
            List<String> clientArgs = new ArrayList<>(List.of(args));
            clientArgs.addAll(clientOnly);
            clientArgs.addAll(List.of("127.0.0.1", "-p", String.valueOf(listener.port())));
            PerftestOptions clientOptions = options(kind, clientArgs);
            pair.server.engine = tappedEngine(true, fabric.sideA(), tap);
            pair.client.engine = tappedEngine(false, fabric.sideB(), tap);
            // as the tools run a side: a failure is perftest's one line on err and status 1
            Future<Integer> s = pool.submit(() -> SessionRunner.run(kind, serverOptions, pair.server.engine,
                    stream(pair.server.out), stream(pair.server.err), listener));
            Future<Integer> c = pool.submit(() -> SessionRunner.run(kind, clientOptions, pair.client.engine,
                    stream(pair.client.out), stream(pair.client.err), null));
            pair.client.status = c.get(90, TimeUnit.SECONDS);
            pair.server.status = s.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return pair;
    }

    private static PrintStream stream(ByteArrayOutputStream b) {
        return new PrintStream(b, true, StandardCharsets.UTF_8);
    }

    private static NicEngine tappedEngine(boolean server, NicAttachment side,
                                          java.util.function.BiFunction<Boolean, FramePort, FramePort> tap) {
        NicOptions nic = new NicOptions(NicOptions.DataPath.IN_PROCESS, 0, null, 0, null, null,
                NicOptions.DEFAULT_ACTIVE_MTU, null, false);
        NicEngine.Config config = PingpongTool.config(nic, server); // the factory's addresses and PSN seed
        FramePort port = tap.apply(server, side.port());
        return new NicEngine(config, () -> PlainAttachment.borrowed(side.scheduler(), port, side.describe() + ", tapped"));
    }

    /**
     * Runs both sides with {@code -R}: no TCP at all, the client connects to the server NIC's IP
     * address through rdma_cm; {@code clientTrace} sees the client's exchange.
     */
    static NicSessions runRdmaCm(TestKind kind, io.rocelab.perftest.oob.OobTrace clientTrace, String... args)
            throws Exception {
        return runRdmaCm(kind, clientTrace, List.of(), args);
    }

    /** The same, with flags only the client gets. */
    static NicSessions runRdmaCm(TestKind kind, io.rocelab.perftest.oob.OobTrace clientTrace, List<String> clientOnly,
                                 String... args) throws Exception {
        NicSessions pair = new NicSessions();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (InProcessFabric fabric = InProcessFabric.create()) {
            NicOptions nic = new NicOptions(NicOptions.DataPath.IN_PROCESS, 0, null, 0, null, null,
                    NicOptions.DEFAULT_ACTIVE_MTU, null, false);
            NicEngineFactory engines = NicEngineFactory.inProcess(fabric, nic);
            List<String> serverArgs = new ArrayList<>(List.of(args));
            serverArgs.add("-R");
            PerftestOptions serverOptions = options(kind, serverArgs);
            List<String> clientArgs = new ArrayList<>(serverArgs);
            clientArgs.addAll(clientOnly);
            clientArgs.add(nic.ipFor(true));
            PerftestOptions clientOptions = options(kind, clientArgs);
            pair.server.engine = engines.create(serverOptions);
            pair.client.engine = engines.create(clientOptions);
            Future<Integer> s = pool.submit(() -> session(pair.server, serverOptions).run());
            // as with perftest, the client starts once the server says it waits (its rdma_cm listens
            // then): a connect request before that is rejected, and perftest's client does not retry
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!pair.server.out().contains("Waiting for client") && !s.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Future<Integer> c = pool.submit(() -> session(pair.client, clientOptions).trace(clientTrace).run());
            pair.client.status = c.get(90, TimeUnit.SECONDS);
            pair.server.status = s.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return pair;
    }

    private static PerftestSession session(Side side, PerftestOptions options) {
        return new PerftestSession(options, side.engine, new PrintStream(side.out, true, StandardCharsets.UTF_8),
                new PrintStream(side.err, true, StandardCharsets.UTF_8), Duration.ofSeconds(30));
    }

    /** A result line of a BW table: size, iterations, peak, average, message rate. */
    record BwLine(long size, long iterations, double peak, double average, double rate) {
        private static final Pattern LINE = Pattern.compile(
                "(?m)^ (\\d+)\\s+(\\d+)\\s+(-?[0-9.]+)\\s+([0-9.]+)\\s+([0-9.]+)\\s*$");

        static List<BwLine> all(String out) {
            List<BwLine> lines = new ArrayList<>();
            Matcher m = LINE.matcher(out);
            while (m.find()) {
                lines.add(new BwLine(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                        Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5))));
            }
            return lines;
        }
    }

    /** A result line of a LAT table: size, iterations, then the seven statistics in microseconds. */
    record LatLine(long size, long iterations, double[] stats) {
        private static final Pattern LINE = Pattern.compile("(?m)^ (\\d+)\\s+(\\d+)((?:\\s+[0-9.]+){7})\\s*$");

        static List<LatLine> all(String out) {
            List<LatLine> lines = new ArrayList<>();
            Matcher m = LINE.matcher(out);
            while (m.find()) {
                String[] f = m.group(3).trim().split("\\s+");
                double[] stats = new double[f.length];
                for (int i = 0; i < f.length; i++) {
                    stats[i] = Double.parseDouble(f[i]);
                }
                lines.add(new LatLine(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), stats));
            }
            return lines;
        }
    }
}
