package io.rocelab.perftest.run;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.oob.OobTrace;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** A rocelab server session and a rocelab client session of one tool, run against each other on 127.0.0.1. */
final class SessionPair {
    /** What one side did. */
    static final class Side {
        final FakeEngine engine;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final List<Integer> sentSizes = Collections.synchronizedList(new ArrayList<>());
        final List<String> sent = Collections.synchronizedList(new ArrayList<>());
        int status;

        Side(FakeEngine engine) {
            this.engine = engine;
        }

        String out() {
            return out.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return err.toString(StandardCharsets.UTF_8);
        }

        OobTrace trace() {
            return new OobTrace() {
                @Override
                public void sent(String what, byte[] bytes) {
                    sentSizes.add(bytes.length);
                    sent.add(what);
                }

                @Override
                public void received(String what, byte[] bytes) {
                }
            };
        }
    }

    final Side server = new Side(new FakeEngine("10.77.0.10", 0x11, 0x100000));
    final Side client = new Side(new FakeEngine("10.77.0.11", 0x21, 0x200000));

    static PerftestOptions options(TestKind kind, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PerftestTool.Parsed p = PerftestTool.parse(kind, args, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
        if (p.options() == null) {
            throw new AssertionError("refused: " + err);
        }
        return p.options();
    }

    /** Runs both sides to the end; {@code args} are the shared flags (the client adds the host). */
    static SessionPair run(TestKind kind, String... args) throws Exception {
        SessionPair pair = new SessionPair();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            PerftestOptions serverOptions = options(kind, args);
            List<String> clientArgs = new ArrayList<>(List.of(args));
            clientArgs.add("127.0.0.1");
            clientArgs.add("-p");
            clientArgs.add(String.valueOf(listener.port()));
            PerftestOptions clientOptions = options(kind, clientArgs.toArray(new String[0]));
            Future<Integer> s = pool.submit(() -> session(pair.server, serverOptions).listener(listener).run());
            Future<Integer> c = pool.submit(() -> session(pair.client, clientOptions).run());
            pair.client.status = c.get(30, TimeUnit.SECONDS);
            pair.server.status = s.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        return pair;
    }

    private static PerftestSession session(Side side, PerftestOptions options) {
        return new PerftestSession(options, side.engine, new PrintStream(side.out, true, StandardCharsets.UTF_8),
                new PrintStream(side.err, true, StandardCharsets.UTF_8), Duration.ofSeconds(20)).trace(side.trace());
    }
}
