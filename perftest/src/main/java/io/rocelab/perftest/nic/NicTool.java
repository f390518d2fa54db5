package io.rocelab.perftest.nic;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A perftest tool on rocelab's soft NIC, from one command line: rocelab's flags
 * ({@link NicOptions}) choose the data path, the rest is perftest's.
 *
 * <pre>
 *   ib_write_bw --udp-frame 40000:40001                          # server
 *   ib_write_bw --udp-frame 40001:40000 127.0.0.1                # client
 *   ib_write_bw --udp-endpoint 10.99.0.2                         # server, receiving on 10.99.0.2:4791
 *   ib_write_bw --udp-endpoint 10.99.0.1 10.99.0.2               # client on 10.99.0.1
 *   ib_write_bw --in-process -s 4096 -n 2000                     # both in this process
 * </pre>
 */
public final class NicTool {
    /** How long the in-process server waits for its client in each exchange. */

    private NicTool() {
    }

    /** Runs one tool; returns its exit status (1 for any mistake on the command line, as perftest). */
    public static int run(TestKind kind, String[] args, PrintStream out, PrintStream err) {
        Objects.requireNonNull(kind, "kind");
        NicOptions.Split split;
        try {
            split = NicOptions.split(args);
        } catch (OptionException e) {
            err.println(e.getMessage());
            return PerftestTool.FAILURE;
        }
        String[] rest = split.perftestArgs();
        if (wantsHelp(rest)) {
            int status = PerftestTool.run(kind, rest, out, err, NicEngineFactory.of(split.nic()));
            out.print(NicOptions.usage(kind.toolName(), true));
            return status;
        }
        ToolRun run = ToolRun.start(kind.toolName(), split.nic(), err);
        int status = PerftestTool.FAILURE;
        try {
            status = split.nic().dataPath() == NicOptions.DataPath.IN_PROCESS
                    ? runInProcess(kind, split.nic(), rest, out, err, run)
                    : PerftestTool.run(kind, rest, out, err, NicEngineFactory.of(split.nic()).watchedBy(run));
        } finally {
            status = run.finish(status);
        }
        return status;
    }

    private static boolean wantsHelp(String[] args) {
        for (String a : args) {
            if ("--".equals(a)) {
                return false;
            }
            if ("-h".equals(a) || "--help".equals(a)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Server and client of one tool in this process, over an in-memory link, with the perftest
     * exchange on a loopback TCP port chosen by the system. The client's output is the tool's;
     * the server's errors are added when the run fails.
     */
    static int runInProcess(TestKind kind, NicOptions nic, String[] args, PrintStream out, PrintStream err,
                            ToolRun run) {
        PerftestTool.Parsed serverParsed = PerftestTool.parse(kind, args, out, err);
        if (serverParsed.options() == null) {
            return serverParsed.exitStatus();
        }
        PerftestOptions serverOptions = serverParsed.options();
        if (serverOptions.isClient()) {
            err.println(" --in-process runs the server and the client itself; give no server address ("
                    + serverOptions.host() + ")");
            return PerftestTool.FAILURE;
        }
        ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "rocelab-in-process-server");
            t.setDaemon(true);
            return t;
        });
        try (InProcessFabric fabric = InProcessFabric.create(nic.busyPoll(), nic.bond());
             OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            List<String> clientArgs = new ArrayList<>(Arrays.asList(args));
            if (serverOptions.rdmaCm()) {
                // rdma_cm connects to the server's NIC by its IP address, on the perftest port itself:
                // with -i 2 to its port-2 address, the client's port 2 being cabled to it
                clientArgs.add(serverOptions.ibPort() == 2 ? nic.ip2For(true) : nic.ipFor(true));
            } else {
                clientArgs.add("-p");
                clientArgs.add(String.valueOf(listener.port()));
                clientArgs.add("127.0.0.1");
            }
            PerftestOptions clientOptions = PerftestTool.parse(kind, clientArgs.toArray(new String[0]),
                    SessionRunner.nullStream(), SessionRunner.nullStream()).options();
            if (clientOptions == null) {
                err.println(" --in-process: the client's command line was refused");
                return PerftestTool.FAILURE;
            }
            NicEngineFactory engines = NicEngineFactory.inProcess(fabric, nic).watchedBy(run);
            NicEngine serverEngine;
            NicEngine clientEngine;
            try {
                serverEngine = engines.create(serverOptions);
                clientEngine = engines.create(clientOptions);
            } catch (OptionException e) {
                err.println(e.getMessage());
                return PerftestTool.FAILURE;
            }
            PrintStream serverErrStream = new PrintStream(serverErr, true, StandardCharsets.UTF_8);
            Future<Integer> server = pool.submit(() -> SessionRunner.run(kind, serverOptions, serverEngine, SessionRunner.nullStream(),
                    serverErrStream, listener));
            clientOptions.notes().forEach(out::println);
            clientOptions.warnings().forEach(err::println);
            if (serverOptions.rdmaCm()) {
                // as a user starts the server first: the client's REQ only once the server listens
                while (!serverEngine.awaitRdmaCmListening(TimeUnit.MILLISECONDS.toNanos(100)) && !server.isDone()) {
                    Waiter.checkInterrupt();
                }
            }
            int client = SessionRunner.run(kind, clientOptions, clientEngine, out, err, null);
            int serverStatus;
            try {
                serverStatus = server.get(client == 0 ? 30 : 5, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                server.cancel(true);
                serverStatus = PerftestTool.FAILURE;
            }
            if (client != 0 || serverStatus != 0) {
                String text = serverErr.toString(StandardCharsets.UTF_8).strip();
                if (!text.isEmpty()) {
                    err.println(" in-process server: " + text);
                }
                return PerftestTool.FAILURE;
            }
            return 0;
        } catch (Exception e) {
            err.println(" " + kind.toolName() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return PerftestTool.FAILURE;
        } finally {
            pool.shutdownNow();
        }
    }

}
