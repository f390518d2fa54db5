package io.rocelab.lab.cli;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.lab.check.ConfigFabric;
import io.rocelab.lab.check.LosslessCheck;
import io.rocelab.lab.metrics.MetricsAddress;
import io.rocelab.lab.metrics.MetricsEndpoint;
import io.rocelab.lab.metrics.SwitchTelemetry;
import io.rocelab.lab.metrics.Telemetry;
import io.rocelab.lab.switchd.ControlClient;
import io.rocelab.lab.switchd.ControlServer;
import io.rocelab.lab.switchd.ControlSocket;
import io.rocelab.lab.switchd.PortSpec;
import io.rocelab.lab.switchd.ShowCommands;
import io.rocelab.lab.switchd.SwitchDaemon;
import io.rocelab.sw.SonicViews;
import io.rocelab.sw.config.ConfigException;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.LoadedConfig;
import io.rocelab.sw.config.SwitchConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rocelab switch}: the soft switch as a long-running process, configured by a SONiC-shaped
 * {@code config_db.json}, its ports on Linux interfaces or frame-over-UDP links; {@code show ...} and
 * {@code clear counters} ask a running one over its control socket. SIGINT or SIGTERM stops it
 * cleanly: the capture is finished and valid, the control socket removed.
 */
@Command(name = "switch",
        description = {"Run the soft switch as a process: SONiC's config_db.json, ports on Linux interfaces or frame-over-UDP links.",
            "  rocelab switch --config config_db.json --port Ethernet0=udp:40010:40000 --port Ethernet4=udp:40014:40004",
            "Then, from another shell: rocelab switch show pfc counters | queue counters | interfaces counters"
                + " | pfcwd stats | priority-group watermark | acl table; rocelab switch clear counters | watermark | acl.",
            "Ctrl-C (SIGINT) or SIGTERM stops it; the capture is finished and valid."},
        mixinStandardHelpOptions = true,
        subcommands = {SwitchCommand.Show.class, SwitchCommand.Clear.class, SwitchCommand.Check.class})
public final class SwitchCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "SONiC's config_db.json, a real switch's as it is"
        + " (PORT, QoS maps, buffers, PFC, WRED, scheduler, PFC_WD, PORTCHANNEL, MCLAG_DOMAIN, ...; the tables rocelab"
        + " does not model are listed once as ignored)")
    Path config;

    @Option(names = "--port", paramLabel = "NAME=KIND:...",
            description = "plug a configured port in, repeatable: NAME=veth:IFACE or NAME=raw:IFACE, a Linux interface"
                + " (needs root; an AF_PACKET socket where it opens, else libpcap: af_packet:IFACE or pcap:IFACE choose;"
                + " turn its offloads off: ethtool -K IFACE tx off tso off gso off gro off);"
                + " NAME=udp:LPORT:RPORT, a frame-over-UDP link (qemu's socket netdev format) receiving on 127.0.0.1:LPORT"
                + " and sending to 127.0.0.1:RPORT, udp:LPORT:HOST:RPORT for another host")
    List<String> ports = new ArrayList<>();

    @Option(names = "--capture", paramLabel = "DIR", description = "write every port's frames to DIR/HOSTNAME.pcapng (one interface per port)")
    Path captureDir;

    @Option(names = "--name", paramLabel = "NAME", defaultValue = ControlSocket.DEFAULT_NAME,
            description = "the switch's name for show/clear (control socket under $XDG_RUNTIME_DIR/rocelab or /tmp/rocelab-USER; default ${DEFAULT-VALUE})")
    String name;

    @Option(names = "--socket", paramLabel = "PATH", description = "the control socket's path (instead of --name)")
    Path socket;

    @Option(names = "--metrics", paramLabel = "HOST:PORT", description = "serve Prometheus metrics at"
        + " http://HOST:PORT/metrics (127.0.0.1:9464; :PORT for every address; port 0: any free one, printed): the"
        + " counters of show interfaces/pfc/queue counters and pfcwd stats, queue depths and watermarks, per port,"
        + " queue and priority, read on the switch's thread at each scrape")
    String metrics;

    @Option(names = "--check", description = "read and check the config only: what would be ignored, one line per"
        + " mistake and exit 2, or a line saying what the switch has; starts nothing")
    boolean check;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (config == null) {
            throw new UserError("switch: --config FILE is required (a SONiC-shaped config_db.json)");
        }
        if (ports.isEmpty() && !check) {
            throw new UserError("switch: give at least one --port NAME=veth:IFACE or NAME=udp:LPORT:RPORT");
        }
        LoadedConfig loaded = loadConfig(config);
        SwitchConfig cfg = loaded.config();
        PrintWriter err = spec.commandLine().getErr();
        for (String line : loaded.lines()) {
            err.println("rocelab switch: " + config + ": " + line);
        }
        err.flush();
        if (check) {
            PrintWriter out = spec.commandLine().getOut();
            long lossless = cfg.ports().stream().filter(p -> p.pfcEnableMask() != 0).count();
            out.printf("%s: ok: switch %s, %d port(s) (%d with PFC), %d port channel(s), %d static route(s)%n", config,
                cfg.hostname(), cfg.ports().size(), lossless, cfg.portChannels().size(),
                cfg.routes().size() + cfg.routes6().size());
            out.flush();
            return 0;
        }
        List<PortSpec> specs = new ArrayList<>();
        for (String p : ports) {
            specs.add(userInput(() -> PortSpec.parse(p)));
        }
        MetricsAddress metricsAt = metrics == null ? null : userInput(() -> MetricsAddress.parse(metrics));
        Path control = controlPath(name, socket);
        io.rocelab.sw.lldp.LldpSettings lldp = userInput(() -> io.rocelab.sw.lldp.LldpTables.read(config));
        SwitchDaemon daemon = userInput(() -> new SwitchDaemon(cfg, specs, captureDir, lldp));
        ControlServer server;
        try {
            server = userInput(() -> new ControlServer(control, daemon));
        } catch (RuntimeException e) {
            daemon.close();
            throw e;
        }
        MetricsEndpoint endpoint = null;
        if (metricsAt != null) {
            try {
                endpoint = userInput(() -> MetricsEndpoint.start(metricsAt, () -> new Telemetry(
                    List.of(daemon.onOwner(() -> SwitchTelemetry.take(cfg.hostname(), daemon.softSwitch()))),
                    List.of(), null)));
            } catch (RuntimeException e) {
                server.close();
                daemon.close();
                throw e;
            }
        }
        MetricsEndpoint metricsEndpoint = endpoint;
        PrintWriter out = spec.commandLine().getOut();
        out.printf("rocelab switch %s: %s, %d of %d ports plugged in%n", cfg.hostname(), config, specs.size(),
            cfg.ports().size());
        for (String line : daemon.describePorts()) {
            out.println("  " + line);
        }
        if (daemon.capturePath() != null) {
            out.println("  capture    " + daemon.capturePath());
        }
        out.println("  control    " + control + " (rocelab switch show pfc counters"
            + (socket != null ? " --socket " + control : ControlSocket.DEFAULT_NAME.equals(name) ? "" : " --name " + name) + ")");
        if (metricsEndpoint != null) {
            out.println("  metrics    " + metricsEndpoint.url() + " (Prometheus text format; OpenMetrics on request)");
        }
        out.println("ready; Ctrl-C stops the switch");
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                if (metricsEndpoint != null) {
                    metricsEndpoint.close();
                }
                stop(daemon, server, out);
            } finally {
                stopped.countDown();
            }
        }, "switch-shutdown"));
        stopped.await();
        return 0;
    }

    /** On SIGINT/SIGTERM: the last counters, then the capture finished on the switch's thread. */
    private static void stop(SwitchDaemon daemon, ControlServer server, PrintWriter out) {
        server.close();
        try {
            out.println("stopping; counters since the last clear:");
            out.print(SonicViews.interfaceCounters(daemon.counters()));
            out.print(daemon.portAttachments());
        } catch (RuntimeException e) {
            out.println("(no counters: " + e.getMessage() + ")");
        }
        try {
            daemon.finish();
            if (daemon.capturePath() != null) {
                out.println("capture written: " + daemon.capturePath());
            }
        } catch (IOException e) {
            out.println("capture incomplete: " + e.getMessage());
        }
        out.flush();
    }

    /**
     * Reads a config_db.json: a real switch's loads as it is, the tables rocelab does not model
     * named in the result, to be shown once.
     */
    static LoadedConfig loadConfig(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new UserError("switch: cannot read " + file);
        }
        try {
            return ConfigLoader.read(file);
        } catch (ConfigException e) {
            throw new UserError("switch: " + file + ": " + String.join("; ", e.problems()));
        } catch (IOException | RuntimeException e) {
            throw new UserError("switch: " + file + ": " + e.getMessage());
        }
    }

    static Path controlPath(String name, Path socket) {
        return socket != null ? socket : userInput(() -> ControlSocket.forName(name));
    }

    /** Runs {@code what}, turning its one-line complaint about the user's input into a {@link UserError}. */
    static <T> T userInput(Callable<T> what) {
        try {
            return what.call();
        } catch (IllegalArgumentException e) {
            throw new UserError("switch: " + e.getMessage());
        } catch (IOException e) {
            throw new UserError("switch: " + e.getMessage());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Prints a running switch's answer; exit status as the switch says. */
    static int ask(CommandSpec spec, String name, Path socket, String request) {
        ControlClient.Answer a = userInput(() -> ControlClient.ask(controlPath(name, socket), request));
        if (a.status() != 0) {
            spec.commandLine().getErr().print("rocelab: switch: " + a.text());
            spec.commandLine().getErr().flush();
            return a.status();
        }
        spec.commandLine().getOut().print(a.text());
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** {@code rocelab switch show WORDS...} */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"Print a running switch's view, as SONiC's show does: interfaces counters, pfc counters,"
                + " queue counters, pfcwd stats, priority-group watermark [shared|headroom],"
                + " priority-group persistent-watermark shared|headroom, buffer_pool watermark,"
                + " buffer_pool persistent-watermark, headroom-pool watermark, priority-group drop counters, fdb counters,"
                + " interfaces portchannel;"
                + " ip route, ipv6 route (FRR's), ip bgp summary, bfd peers brief (with bgp_asn and BGP_NEIGHBOR in the config);"
                + " ports (rocelab's: each port's attachment and its own counters, drops at the socket included)."})
    static final class Show implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "WORDS", description = "e.g. pfc counters")
        List<String> words;

        @Mixin
        Target target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            return ask(spec, target.name, target.socket, "show " + String.join(" ", words));
        }
    }

    /** Which running switch a command talks to: by its --name, or by its control socket. */
    static final class Target {
        @Option(names = "--name", paramLabel = "NAME", defaultValue = ControlSocket.DEFAULT_NAME, description = "the switch's --name (default ${DEFAULT-VALUE})")
        String name;

        @Option(names = "--socket", paramLabel = "PATH", description = "the switch's control socket (instead of --name)")
        Path socket;
    }

    /** {@code rocelab switch clear counters|watermark} */
    @Command(name = "clear", mixinStandardHelpOptions = true,
            description = {"Clear a running switch's counters, as sonic-clear counters does: show counts from zero;"
                + " or its watermarks, as sonic-clear watermark does: the watermark views start again from what the"
                + " buffers hold now, the persistent-watermark views keep their peak."})
    static final class Clear implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "WORDS", description = "counters | watermark | acl")
        List<String> words;

        @Mixin
        Target target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            return ask(spec, target.name, target.socket, "clear " + String.join(" ", words));
        }
    }

    /** {@code rocelab switch check CONFIG... [--link SW_A:PORT=SW_B:PORT ...]}: the lossless checks over real files. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Check the lossless class of a fabric of real config_db.json files, each a switch named by its"
                + " DEVICE_METADATA hostname, cabled by --link and by the files' DEVICE_NEIGHBOR: PFC at both ends of each"
                + " cable, DSCP to TC, PG and queue across it and through each switch, lossless queues (BUFFER_QUEUE),"
                + " headroom, ECN before PFC, the CNP class, the PFC watchdog, PCP trust on untagged ports.",
                "One line per finding (FILE: TABLE|key: what), a count; exit code 0: nothing found, 1: findings,"
                + " 2: a file or a --link is wrong."})
    static final class Check implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "CONFIG", description = "config_db.json files, one per switch")
        List<Path> files;

        @Option(names = "--link", paramLabel = "SW_A:PORT=SW_B:PORT", description = "a cable between two of the"
            + " files' switches (their hostnames), repeatable")
        List<String> links = new ArrayList<>();

        @Option(names = "--incast", paramLabel = "N", defaultValue = "2", description = "the incast the ECN-before-PFC"
            + " check assumes (default ${DEFAULT-VALUE})")
        int incast;

        @Option(names = "--cnp-dscp", paramLabel = "N", defaultValue = "48", description = "the CNPs' DSCP"
            + " (default ${DEFAULT-VALUE}, mlx5's cnp_dscp)")
        int cnpDscp;

        @Option(names = "--peer-response", paramLabel = "R", description = "how long every port's link partner takes"
            + " to act on a pause, for the headroom check: ieee, quanta (394q), a time (2us) or 0 (default: SONiC's"
            + " assumed 3.8 KiB)")
        String peerResponse;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if (incast < 1) {
                throw new UserError("switch check: --incast must be at least 1: " + incast);
            }
            if (cnpDscp < 0 || cnpDscp > 63) {
                throw new UserError("switch check: --cnp-dscp must be 0..63: " + cnpDscp);
            }
            PauseResponse response = peerResponse == null ? null
                : userInput(() -> PauseResponse.parse(peerResponse));
            PrintWriter out = spec.commandLine().getOut();
            var fabric = userInputOrMistakes(() -> ConfigFabric.read(files, links,
                new ConfigFabric.Options(incast, cnpDscp, response)));
            if (fabric == null) {
                return CommandLines.USAGE_ERROR;
            }
            List<String> lines = LosslessCheck.lines(LosslessCheck.findings(fabric));
            lines.forEach(out::println);
            out.println(LosslessCheck.countLine(lines.size(), LosslessCheck.hasLosslessPort(fabric)));
            out.flush();
            return lines.isEmpty() ? 0 : 1;
        }

        private <T> T userInputOrMistakes(Callable<T> what) {
            try {
                return what.call();
            } catch (ConfigFabric.Mistakes e) {
                PrintWriter err = spec.commandLine().getErr();
                e.lines().forEach(l -> err.println("switch check: " + l));
                err.flush();
                return null;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
