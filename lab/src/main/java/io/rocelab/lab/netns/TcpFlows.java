package io.rocelab.lab.netns;

import io.rocelab.topology.workload.FlowProgress;
import io.rocelab.topology.workload.FlowResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The {@code verb: tcp} flows of a netns run: real TCP between linux hosts, by iperf3. Each flow's
 * server ({@code iperf3 -s -1}) starts in the destination's namespace before the run and prints an
 * interval line every probe interval (at least iperf3's 0.1 s), which is the flow's progress while
 * it runs; its client ({@code iperf3 -c ... -J}) starts in the source's namespace at the flow's
 * start time and its JSON gives the result: the bytes the server received and their rate.
 */
public final class TcpFlows implements AutoCloseable {
    private static final long SERVER_READY_SECONDS = 10;
    /** How long after its planned end a client may take to report. */
    private static final long CLIENT_GRACE_SECONDS = 15;

    /**
     * One flow.
     *
     * @param startNanos  from the run's epoch
     * @param seconds     iperf3 {@code -t}
     * @param streams     iperf3 {@code -P}
     * @param rateBitsPerSecond iperf3 {@code -b} (per stream), 0 for none
     */
    public record Spec(String name, String source, String destination, String sourceNamespace,
                       String destinationNamespace, String destinationIp, int port, long startNanos, long seconds,
                       int streams, long rateBitsPerSecond) {
    }

    private final class Run implements FlowProgress {
        final Spec spec;
        Process server;
        volatile Process client;
        final CompletableFuture<String> clientOutput = new CompletableFuture<>();
        final CountDownLatch listening = new CountDownLatch(1);
        final StringBuilder serverText = new StringBuilder();
        volatile long bytes;
        volatile long startedNanos = -1;
        volatile boolean done;

        Run(Spec spec) {
            this.spec = spec;
        }

        @Override
        public long bytesCompleted() {
            return bytes;
        }

        @Override
        public long messagesCompleted() {
            return 0;
        }

        @Override
        public long errorCompletions() {
            return 0;
        }

        @Override
        public boolean started() {
            return startedNanos >= 0;
        }

        @Override
        public boolean finished() {
            return done;
        }
    }

    private final Map<String, Run> runs = new LinkedHashMap<>();
    private final ScheduledExecutorService starter = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tcp-flows");
        t.setDaemon(true);
        return t;
    });
    private final LongSupplier clock;
    private final long epochNanos;

    private TcpFlows(LongSupplier clock, long epochNanos) {
        this.clock = clock;
        this.epochNanos = epochNanos;
    }

    /**
     * Starts every flow's server, waits until each listens, and plans each client's start.
     *
     * @param clock          the fabric's clock, nanoseconds
     * @param epochNanos     the run's time 0 on that clock
     * @param intervalNanos  how often the servers report (the probes' interval)
     */
    public static TcpFlows start(List<Spec> specs, LongSupplier clock, long epochNanos, long intervalNanos) {
        TcpFlows f = new TcpFlows(clock, epochNanos);
        try {
            for (Spec s : specs) {
                f.runs.put(s.name(), f.new Run(s));
            }
            String interval = String.format(Locale.ROOT, "%.2f", Math.max(0.1, intervalNanos / 1e9));
            for (Run r : f.runs.values()) {
                f.startServer(r, interval);
            }
            for (Run r : f.runs.values()) {
                if (!r.listening.await(SERVER_READY_SECONDS, TimeUnit.SECONDS)) {
                    throw new NetnsException("iperf3's server for flow '" + r.spec.name() + "' did not listen within "
                        + SERVER_READY_SECONDS + " s: " + Commands.firstLine(r.serverText.toString()));
                }
            }
            for (Run r : f.runs.values()) {
                long delay = epochNanos + r.spec.startNanos() - clock.getAsLong();
                f.starter.schedule(() -> f.startClient(r), Math.max(0, delay), TimeUnit.NANOSECONDS);
            }
            return f;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            f.close();
            throw new NetnsException("interrupted while starting iperf3", e);
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    private void startServer(Run r, String interval) {
        Spec s = r.spec;
        List<String> cmd = List.of(Commands.require("ip", "iproute2"), "netns", "exec", s.destinationNamespace(),
            Commands.require("iperf3", "iperf3"), "-s", "-1", "-p", Integer.toString(s.port()), "-B",
            s.destinationIp(), "-i", interval, "--forceflush");
        try {
            r.server = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new NetnsException("cannot start iperf3: " + e.getMessage(), e);
        }
        Thread t = new Thread(() -> readServer(r), "iperf3-server-" + s.name());
        t.setDaemon(true);
        t.start();
    }

    private void readServer(Run r) {
        boolean sum = r.spec.streams() > 1;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.server.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                synchronized (r.serverText) {
                    if (r.serverText.length() < 1 << 16) {
                        r.serverText.append(line).append('\n');
                    }
                }
                if (line.contains("Server listening")) {
                    r.listening.countDown();
                } else if (!line.trim().endsWith("sender") && !line.trim().endsWith("receiver")) {
                    // an interval's line (the totals at the end say whose they are)
                    long b = Iperf3Output.intervalBytes(line, sum);
                    if (b >= 0) {
                        r.bytes += b;
                    }
                }
            }
        } catch (IOException e) {
            // the server was stopped: what it said is what there is
        }
    }

    private void startClient(Run r) {
        Spec s = r.spec;
        List<String> cmd = new ArrayList<>(List.of(Commands.require("ip", "iproute2"), "netns", "exec",
            s.sourceNamespace(), Commands.require("iperf3", "iperf3"), "-c", s.destinationIp(), "-p",
            Integer.toString(s.port()), "-t", Long.toString(s.seconds()), "-P", Integer.toString(s.streams()), "-J"));
        if (s.rateBitsPerSecond() > 0) {
            cmd.addAll(List.of("-b", Long.toString(s.rateBitsPerSecond())));
        }
        try {
            r.startedNanos = clock.getAsLong() - epochNanos;
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            r.client = p;
            Thread t = new Thread(() -> {
                try {
                    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    p.waitFor();
                    r.clientOutput.complete(out);
                } catch (IOException | InterruptedException e) {
                    r.clientOutput.complete("");
                } finally {
                    r.done = true;
                }
            }, "iperf3-client-" + s.name());
            t.setDaemon(true);
            t.start();
        } catch (IOException e) {
            r.clientOutput.complete("{\"error\": \"cannot start iperf3: " + e.getMessage() + "\"}");
            r.done = true;
        }
    }

    /** @return the live progress of flow {@code name}, or null if it is not a tcp flow */
    public FlowProgress progress(String name) {
        return runs.get(name);
    }

    /** Waits for every client to end (its time, and a grace) and returns what each flow did. */
    public List<FlowResult> results() {
        List<FlowResult> out = new ArrayList<>();
        for (Run r : runs.values()) {
            out.add(result(r));
        }
        return out;
    }

    private FlowResult result(Run r) {
        Spec s = r.spec;
        if (r.startedNanos < 0) {
            return new FlowResult(s.name(), s.source(), s.destination(), null, FlowResult.Outcome.NOT_STARTED, 0, 0,
                0, -1, -1, -1, 0, Map.of(), -1, -1, -1, -1, 0);
        }
        String json;
        try {
            json = r.clientOutput.get(s.seconds() + CLIENT_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            json = "{\"error\": \"iperf3's client did not finish within " + (s.seconds() + CLIENT_GRACE_SECONDS)
                + " s\"}";
        }
        Iperf3Output.Received got = Iperf3Output.received(json);
        String error = Iperf3Output.error(json);
        Process c = r.client;
        if (got == null || error != null || (c != null && c.isAlive()) || (c != null && c.exitValue() != 0)) {
            String why = error != null ? error : got == null ? "no result: " + Commands.firstLine(json) : "exit "
                + (c == null || c.isAlive() ? "?" : c.exitValue());
            return new FlowResult(s.name(), s.source(), s.destination(), null, FlowResult.Outcome.FAILED, 0, r.bytes,
                r.bytes, r.startedNanos, -1, -1, 0, Map.of("iperf3: " + why, 1L), -1, -1, -1, -1, 0);
        }
        long end = r.startedNanos + Math.round(got.seconds() * 1e9);
        return new FlowResult(s.name(), s.source(), s.destination(), null, FlowResult.Outcome.STOPPED, 0, got.bytes(),
            got.bytes(), r.startedNanos, end, -1, got.bitsPerSecond(), Map.of(), -1, -1, -1, -1, 0);
    }

    /** Stops whatever still runs (clients first, then servers). */
    @Override
    public void close() {
        starter.shutdownNow();
        for (Run r : runs.values()) {
            Process c = r.client;
            if (c != null && c.isAlive()) {
                c.destroy();
            }
        }
        for (Run r : runs.values()) {
            if (r.server != null && r.server.isAlive()) {
                r.server.destroy();
            }
            r.listening.countDown();
        }
        for (Run r : runs.values()) {
            for (Process p : new Process[] {r.client, r.server}) {
                try {
                    if (p != null && !p.waitFor(5, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
