package io.rocelab.perftest.nic;

import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.nic.SoftNic;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.pingpong.PingpongKind;
import io.rocelab.perftest.pingpong.PingpongOptions;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * rdma-core's {@code ibv_rc_pingpong}, {@code ibv_uc_pingpong} and {@code ibv_ud_pingpong} on
 * rocelab's soft NIC, from one command line: rocelab's data-path flags ({@link NicOptions}, the same
 * as the perftest tools take) are taken out first, the rest is read as the C tool reads it.
 *
 * <pre>
 *   ibv_rc_pingpong --udp-frame 40000:40001 -g 1                      # server
 *   ibv_rc_pingpong --udp-frame 40001:40000 -g 1 127.0.0.1            # client
 *   ibv_rc_pingpong --in-process -n 1000                              # both in this process
 * </pre>
 *
 * A mistake on the command line is one line on stderr and exit status 1; so is a failed run,
 * with the C tool's message ("Couldn't connect to ...", "Failed status ... for wr_id ...").
 */
public final class PingpongTool {
    /** The in-process server's patience for its client. */
    private static final Duration IN_PROCESS_TIMEOUT = Duration.ofSeconds(60);

    private PingpongTool() {
    }

    /** Runs one tool from its whole command line; returns the exit status. */
    public static int run(PingpongKind kind, String[] args, PrintStream out, PrintStream err) {
        Objects.requireNonNull(kind, "kind");
        NicOptions.Split split;
        PingpongOptions options;
        try {
            split = NicOptions.split(args);
            options = PingpongOptions.parse(kind, split.perftestArgs());
        } catch (OptionException e) {
            err.println(e.getMessage());
            return PerftestTool.FAILURE;
        }
        if (options.help()) {
            out.print(kind.usage());
            out.print(NicOptions.usage(kind.toolName(), false));
            return 0;
        }
        NicOptions nic = split.nic();
        if (nic.dataPath() == NicOptions.DataPath.NONE) {
            err.println(kind.toolName() + ": rocelab needs a data path: --udp-frame LPORT:RPORT (to another rocelab"
                    + " or a qemu VM), --udp-endpoint LOCAL_IP (to another rocelab over IP), --raw IFACE (a Linux"
                    + " interface) or --in-process (server and client in this process)");
            return PerftestTool.FAILURE;
        }
        if (nic.dataPath() == NicOptions.DataPath.UDP_ENDPOINT && options.gidIndex() >= 0
                && options.gidIndex() != SoftNic.GID_INDEX_IPV4) {
            err.println(kind.toolName() + ": --udp-endpoint carries RoCEv2 over IPv4 only: use GID index "
                    + SoftNic.GID_INDEX_IPV4 + " (the IPv4-mapped GID), not " + options.gidIndex());
            return PerftestTool.FAILURE;
        }
        ToolRun run = ToolRun.start(kind.toolName(), nic, err);
        int status = PerftestTool.FAILURE;
        try {
            try {
                run.openCapture();
            } catch (OptionException e) {
                err.println(kind.toolName() + ":" + e.getMessage());
                return status;
            }
            status = switch (nic.dataPath()) {
                case IN_PROCESS -> runInProcess(options, nic, out, err, run);
                case UDP_FRAME -> run(options, nic, server -> NicAttachment.withPort2(NicAttachment.udpFrame("rocelab-"
                        + (server ? "server" : "client"), nic.udpLocal(), nic.udpHost(), nic.udpRemote()), nic, server),
                        out, err, Duration.ZERO, null, run, "");
                case RAW -> run(options, nic, server -> NicAttachment.withPort2(NicAttachment.raw("rocelab-"
                        + (server ? "server" : "client"), nic.rawInterface(), nic.rawBackend()), nic, server), out, err,
                        Duration.ZERO, null, run, "");
                default -> run(options, nic, server -> NicAttachment.udpEndpoint("rocelab-"
                        + (server ? "server" : "client"), nic.ip(), MacAddress.parse(nic.macFor(server))), out, err,
                        Duration.ZERO, null, run, "");
            };
        } finally {
            status = run.finish(status);
        }
        return status;
    }

    /**
     * Runs one side on a NIC plugged into whatever {@code attach} opens (a capture tap, a switch
     * port): the seam for programs and tests that own the port.
     *
     * @param options   the tool's command line, read
     * @param nic       the NIC's addresses, MTU and PSN seed (the data path in it is not used)
     * @param attach    given whether this side is the server, opens what the NIC is plugged into
     * @param ioTimeout patience of the exchange's reads ({@link Duration#ZERO}: forever)
     * @param listener  a listener already bound for the server, or null to bind {@code -p}
     * @return the exit status; a failure is one line on {@code err}
     */
    public static int run(PingpongOptions options, NicOptions nic, Function<Boolean, NicAttachment> attach,
                          PrintStream out, PrintStream err, Duration ioTimeout, OobServer listener) {
        return run(options, nic, attach, out, err, ioTimeout, listener, null, "");
    }

    /** The same, with the NIC watched by {@code run} (its capture and counters), under {@code role}. */
    private static int run(PingpongOptions options, NicOptions nic, Function<Boolean, NicAttachment> attach,
                           PrintStream out, PrintStream err, Duration ioTimeout, OobServer listener, ToolRun run,
                           String role) {
        String tool = options.kind().toolName();
        try {
            if (options.ibPort() == 2 && !nic.hasPort2() && nic.dataPath() != NicOptions.DataPath.NONE) {
                throw new OptionException("Couldn't get port info: -i 2: the NIC has no port 2 here: --in-process"
                        + " cables one, --udp-frame2 or --raw2 gives one");
            }
            if (options.ibPort() == 2 && nic.bond() != null) {
                throw new OptionException("Couldn't get port info: -i 2: with --bond the two ports are one, port 1");
            }
            boolean server = options.isServer();
            NicEngine.Config config = config(nic, server);
            PingpongSession s = new PingpongSession(options, config,
                    () -> run == null ? attach.apply(server) : run.attach(attach.apply(server), role), out, ioTimeout);
            if (run != null) {
                run.watch(role, s::nic);
            }
            if (listener != null) {
                s.listener(listener);
            }
            return s.run();
        } catch (OptionException e) {
            err.println(e.getMessage());
            return PerftestTool.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(tool + ": interrupted");
            return PerftestTool.FAILURE;
        } catch (Exception e) {
            err.println(tool + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return PerftestTool.FAILURE;
        }
    }

    /** The NIC of one side: its addresses and a PSN seed derived from them unless one was given. */
    static NicEngine.Config config(NicOptions nic, boolean server) {
        String ip = nic.ipFor(server);
        String mac = nic.macFor(server);
        long seed = nic.psnSeed() != null ? nic.psnSeed() : SplitMix64.mix(mac.hashCode() * 31L + ip.hashCode());
        return new NicEngine.Config(ip, mac, nic.activeMtu(), seed, nic.ip6For(server), nic.congestionFor(server),
                nic.roceV1());
    }

    /**
     * Server and client in this process over an in-memory link, the exchange on a loopback port
     * the system picks. The client's output is the tool's; the server's errors are added when the
     * run fails.
     */
    private static int runInProcess(PingpongOptions options, NicOptions nic, PrintStream out, PrintStream err,
                                    ToolRun run) {
        String tool = options.kind().toolName();
        if (!options.isServer()) {
            err.println(tool + ": --in-process runs the server and the client itself; give no server address ("
                    + options.server() + ")");
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
            PingpongOptions client = options.asClientOf("127.0.0.1", listener.port());
            PrintStream serverErrStream = new PrintStream(serverErr, true, StandardCharsets.UTF_8);
            Future<Integer> server = pool.submit(() -> run(options, nic, s -> fabric.sideA(),
                    SessionRunner.nullStream(), serverErrStream, IN_PROCESS_TIMEOUT, listener, run, "server"));
            int clientStatus = run(client, nic, s -> fabric.sideB(), out, err, IN_PROCESS_TIMEOUT, null, run, "client");
            int serverStatus;
            try {
                serverStatus = server.get(clientStatus == 0 ? 30 : 5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                server.cancel(true);
                serverStatus = PerftestTool.FAILURE;
            }
            if (clientStatus != 0 || serverStatus != 0) {
                String text = serverErr.toString(StandardCharsets.UTF_8).strip();
                if (!text.isEmpty() && clientStatus == 0) {
                    err.println(tool + " (in-process server): " + text);
                }
                return PerftestTool.FAILURE;
            }
            return 0;
        } catch (Exception e) {
            err.println(tool + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return PerftestTool.FAILURE;
        } finally {
            pool.shutdownNow();
        }
    }
}
