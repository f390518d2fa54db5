package io.rocelab.perftest.nic;

import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.run.EngineFactory;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Two hosts whose soft NICs are plugged into ports the caller made (a switch's links, say), and
 * a tool's server and client run on them in this process, with perftest's out-of-band exchange on
 * a loopback TCP port as {@code --in-process} does. Unlike {@code --in-process}, the caller owns
 * the fabric: the hosts' addresses, their event loops and whatever lies between them.
 *
 * <p>Each {@link #run} opens a fresh NIC on each host (as each perftest run opens the device) and
 * closes it at the end; the NICs' counters of that run are handed back. The ports and loops are
 * never closed here.
 */
public final class HostPair implements EngineFactory {
    /** How long the server waits for its client in each exchange. */

    /**
     * One host: its NIC's addresses and what the NIC is plugged into.
     *
     * @param name      a short name for messages ("host-a")
     * @param ip        IPv4 address
     * @param mac       MAC address
     * @param scheduler the NIC's owner thread (also the port's)
     * @param port      the port the NIC's frames leave by
     */
    public record Host(String name, String ip, String mac, Scheduler scheduler, FramePort port) {
        public Host {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(ip, "ip");
            Objects.requireNonNull(mac, "mac");
            Objects.requireNonNull(scheduler, "scheduler");
            Objects.requireNonNull(port, "port");
        }
    }

    /**
     * What one run did.
     *
     * @param status         the tool's exit status (0 when both sides succeeded)
     * @param serverCounters the server host's NIC counters for this run (empty if the NIC never opened)
     * @param clientCounters the client host's NIC counters for this run
     */
    public record Result(int status, Map<NicCounter, Long> serverCounters, Map<NicCounter, Long> clientCounters) {
    }

    private final Host server;
    private final Host client;
    private final int activeMtu;
    private final int trafficClass;

    /**
     * @param server       the host that runs the tool's server
     * @param client       the host that runs the tool's client (its output is the tool's)
     * @param activeMtu    port MTU of both NICs, 256..4096
     * @param trafficClass the NICs' default traffic class (DSCP &lt;&lt; 2 | ECN) when the tool sets none
     */
    public HostPair(Host server, Host client, int activeMtu, int trafficClass) {
        this.server = Objects.requireNonNull(server, "server");
        this.client = Objects.requireNonNull(client, "client");
        if (io.rocelab.perftest.Mtu.ofBytes(activeMtu) == null) {
            throw new IllegalArgumentException("activeMtu must be 256..4096, a power of two: " + activeMtu);
        }
        if (trafficClass < 0 || trafficClass > 255) {
            throw new IllegalArgumentException("trafficClass must be 0..255: " + trafficClass);
        }
        this.activeMtu = activeMtu;
        this.trafficClass = trafficClass;
    }

    public Host server() {
        return server;
    }

    public Host client() {
        return client;
    }

    /** An engine on the server's host or the client's, by the options' role. */
    @Override
    public NicEngine create(PerftestOptions o) {
        NicEngineFactory.checkSupported(o);
        Host h = o.isServer() ? server : client;
        long seed = SplitMix64.mix(h.mac().hashCode() * 31L + h.ip().hashCode());
        NicAttachment attachment = new NicAttachment() {
            @Override
            public Scheduler scheduler() {
                return h.scheduler();
            }

            @Override
            public FramePort port() {
                return h.port();
            }

            @Override
            public String describe() {
                return h.name();
            }

            @Override
            public void close() {
                // the caller owns the port and the loop
            }
        };
        return new NicEngine(new NicEngine.Config(h.ip(), h.mac(), activeMtu, seed), () -> attachment)
                .defaultTrafficClass(trafficClass);
    }

    /**
     * Runs one tool: its server on {@link #server()}, its client on {@link #client()}.
     *
     * @param kind the tool
     * @param args perftest's flags, without a server address or {@code -p} (both are added for the client)
     * @param out  the client's output: the tool's header and result table
     * @param err  errors, one line each; the server's are added when the run fails
     */
    public Result run(TestKind kind, String[] args, PrintStream out, PrintStream err) {
        Objects.requireNonNull(kind, "kind");
        PerftestTool.Parsed serverParsed = PerftestTool.parse(kind, args, out, err);
        if (serverParsed.options() == null) {
            return new Result(serverParsed.exitStatus(), Map.of(), Map.of());
        }
        PerftestOptions serverOptions = serverParsed.options();
        if (serverOptions.isClient()) {
            err.println(" " + kind.toolName() + ": give no server address (" + serverOptions.host()
                    + "); the client connects to its peer host itself");
            return new Result(PerftestTool.FAILURE, Map.of(), Map.of());
        }
        ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rocelab-" + server.name() + "-server");
            t.setDaemon(true);
            return t;
        });
        NicEngine serverEngine = null;
        NicEngine clientEngine = null;
        int status;
        try (OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            List<String> clientArgs = new ArrayList<>(Arrays.asList(args));
            clientArgs.add("-p");
            clientArgs.add(String.valueOf(listener.port()));
            clientArgs.add("127.0.0.1");
            PerftestOptions clientOptions = PerftestTool.parse(kind, clientArgs.toArray(new String[0]),
                    SessionRunner.nullStream(), SessionRunner.nullStream()).options();
            if (clientOptions == null) {
                err.println(" " + kind.toolName() + ": the client's command line was refused");
                return new Result(PerftestTool.FAILURE, Map.of(), Map.of());
            }
            try {
                serverEngine = create(serverOptions);
                clientEngine = create(clientOptions);
            } catch (OptionException e) {
                err.println(e.getMessage());
                return new Result(PerftestTool.FAILURE, Map.of(), Map.of());
            }
            PrintStream serverErrStream = new PrintStream(serverErr, true, StandardCharsets.UTF_8);
            NicEngine se = serverEngine;
            Future<Integer> serverRun = pool.submit(() -> SessionRunner.run(kind, serverOptions, se, SessionRunner.nullStream(),
                    serverErrStream, listener));
            clientOptions.notes().forEach(out::println);
            clientOptions.warnings().forEach(err::println);
            int clientStatus = SessionRunner.run(kind, clientOptions, clientEngine, out, err, null);
            int serverStatus;
            try {
                serverStatus = serverRun.get(clientStatus == 0 ? 30 : 5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                serverRun.cancel(true);
                serverStatus = PerftestTool.FAILURE;
            }
            status = clientStatus == 0 && serverStatus == 0 ? 0 : PerftestTool.FAILURE;
            if (status != 0) {
                String text = serverErr.toString(StandardCharsets.UTF_8).strip();
                if (!text.isEmpty()) {
                    err.println(" " + server.name() + " (server): " + text);
                }
            }
        } catch (Exception e) {
            err.println(" " + kind.toolName() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            status = PerftestTool.FAILURE;
        } finally {
            pool.shutdownNow();
        }
        return new Result(status, counters(serverEngine), counters(clientEngine));
    }

    /** The NIC's counters (readable from any thread, and after the NIC is closed). */
    private static Map<NicCounter, Long> counters(NicEngine engine) {
        if (engine == null || engine.nic() == null) {
            return Map.of();
        }
        return Collections.unmodifiableMap(engine.nic().counters().snapshot());
    }

}
