package io.rocelab.perftest.nic;

import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.raw.NetdevMtu;
import io.rocelab.nic.SoftNic;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.run.EngineFactory;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Makes {@link NicEngine}s: checks that the soft NIC can run what the command line asks, picks
 * the NIC's addresses for the side it is on, and says where its frames go.
 */
public final class NicEngineFactory implements EngineFactory {
    /**
     * The local ACK timeout exponent of the UDP data paths ({@code --udp-endpoint},
     * {@code --udp-frame}) when {@code -u} is not given: 18, 4.096 µs × 2^18 = 1.07 s, instead of
     * perftest's 14 (67 ms). Why: there the round trip runs through two JVMs and the host's
     * scheduler, not a NIC's pipeline; on a loaded machine a young collection or a loop thread
     * waiting for a core holds the peer's ACKs for longer than 67 ms with nothing lost, and every
     * such wait became a go-back-N resend of the whole window (4–27 per 10 s run measured, a 551 ms
     * pause once took all 7 retries and failed the run with IBV_WC_RETRY_EXC_ERR). Frame-over-UDP's
     * other peer is a qemu VM, whose rxe under TCG took over 100 ms to acknowledge a 64 KiB message
     * at load 10 (interop/README.md): the interop runs and the recipe for a VM used {@code -u 18}.
     * A lost packet is still found: by the receiver's NAK on the next packet, or by this timer.
     * NCCL's default (NCCL_IB_TIMEOUT) is also 18. An explicit {@code -u} is used as given.
     */
    static final int UDP_QP_TIMEOUT = 18;

    private final NicOptions nic;
    private final Function<PerftestOptions, NicAttachment> attachments;
    /** Both sides of the test come from this factory (in-process): each NIC has a role in messages. */
    private final boolean bothSides;
    /** The run that watches the engines' NICs and captures their frames, or null. */
    private final ToolRun run;

    private NicEngineFactory(NicOptions nic, Function<PerftestOptions, NicAttachment> attachments, boolean bothSides,
                             ToolRun run) {
        this.nic = Objects.requireNonNull(nic, "nic");
        this.attachments = attachments;
        this.bothSides = bothSides;
        this.run = run;
    }

    /**
     * The same engines, each NIC watched by {@code run} (its counters printed if the run fails or is
     * interrupted) and its port tapped into the run's {@code --capture}.
     */
    NicEngineFactory watchedBy(ToolRun toolRun) {
        Objects.requireNonNull(toolRun, "toolRun");
        return new NicEngineFactory(nic, o -> toolRun.attach(attachments.apply(o), role(o)), bothSides, toolRun);
    }

    private String role(PerftestOptions o) {
        return !bothSides ? "" : o.isServer() ? "server" : "client";
    }

    /**
     * The factory for a command line's rocelab flags: frame-over-UDP when {@code --udp-frame} is
     * given, UDP endpoint mode when {@code --udp-endpoint} is; with no data path, {@link #create} refuses in one line.
     */
    public static NicEngineFactory of(NicOptions nic) {
        return new NicEngineFactory(nic, o -> NicAttachment.withPort2(attachment(nic, o), nic, o.isServer()), false,
                null);
    }

    private static NicAttachment attachment(NicOptions nic, PerftestOptions o) {
        if (nic.dataPath() == NicOptions.DataPath.UDP_ENDPOINT) {
            return NicAttachment.udpEndpoint("rocelab-" + (o.isServer() ? "server" : "client"), nic.ip(),
                    MacAddress.parse(nic.macFor(o.isServer())));
        }
        if (nic.dataPath() == NicOptions.DataPath.RAW) {
            return NicAttachment.raw("rocelab-" + (o.isServer() ? "server" : "client"), nic.rawInterface(), nic.rawBackend());
        }
        if (nic.dataPath() != NicOptions.DataPath.UDP_FRAME) {
            throw new IllegalStateException("no frame-over-UDP port configured");
        }
        return NicAttachment.udpFrame("rocelab-" + (o.isServer() ? "server" : "client"), nic.udpLocal(),
                nic.udpHost(), nic.udpRemote());
    }

    /**
     * Engines on an in-process fabric: the server on side A, the client on side B, with the
     * default addresses of each role.
     */
    public static NicEngineFactory inProcess(InProcessFabric fabric) {
        return inProcess(fabric, new NicOptions(NicOptions.DataPath.IN_PROCESS, 0, null, 0, null, null,
                NicOptions.DEFAULT_ACTIVE_MTU, null, false));
    }

    /** Engines on an in-process fabric with the given NIC settings (MTU, PSN seed). */
    public static NicEngineFactory inProcess(InProcessFabric fabric, NicOptions nic) {
        Objects.requireNonNull(fabric, "fabric");
        return new NicEngineFactory(nic, o -> o.isServer() ? fabric.sideA() : fabric.sideB(), true, null);
    }

    @Override
    public NicEngine create(PerftestOptions o) {
        check(o);
        boolean server = o.isServer();
        String ip = nic.ipFor(server);
        String mac = nic.macFor(server);
        long seed = nic.psnSeed() != null ? nic.psnSeed()
                : SplitMix64.mix(mac.hashCode() * 31L + ip.hashCode());
        NicEngine engine = new NicEngine(new NicEngine.Config(ip, mac, activeMtu(), seed, nic.ip6For(server),
                nic.congestionFor(server), nic.roceV1()),
                () -> attachments.apply(o));
        if (nic.dataPath() == NicOptions.DataPath.UDP_ENDPOINT || nic.dataPath() == NicOptions.DataPath.UDP_FRAME
                || nic.dataPath() == NicOptions.DataPath.RAW) {
            engine.defaultQpTimeout(UDP_QP_TIMEOUT);
        }
        if ((nic.dataPath() == NicOptions.DataPath.UDP_FRAME || nic.dataPath() == NicOptions.DataPath.RAW)
                && !"false".equals(System.getProperty(LLDP_PROPERTY))) {
            // an Ethernet port: LLDP on it, as lldpd on a host's interface (not on the UDP endpoint, an L3 socket)
            engine.lldp(hostName());
        }
        if (nic.dataPath() == NicOptions.DataPath.IN_PROCESS) {
            engine.latencyOnNicThread(nic.busyPoll()); // the latency loops run on the NICs' one thread
        }
        if (run != null) {
            run.openCapture();
            run.watch(role(o), engine::nic);
        }
        return engine;
    }

    /** {@code -Drocelab.lldp=false}: the tools' NICs run no LLDP on {@code --raw} and {@code --udp-frame}. */
    static final String LLDP_PROPERTY = "rocelab.lldp";

    /** The machine's name (the LLDPDUs' system name), as lldpd takes it (uname's node name; no name lookup). */
    private static String hostName() {
        try {
            String name = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
            return name.isEmpty() ? "rocelab" : name;
        } catch (java.io.IOException | RuntimeException e) {
            return "rocelab";
        }
    }

    /**
     * The port's active MTU: {@code --active-mtu} (4096 by default), and on {@code --raw}/{@code --raw2}
     * no more than each interface's MTU allows, as rxe takes it from its netdev ({@link NetdevMtu});
     * when an interface lowers it, one line says so before perftest's header.
     */
    private int activeMtu() {
        int mtu = nic.activeMtu();
        if (nic.dataPath() != NicOptions.DataPath.RAW) {
            return mtu;
        }
        List<String> ifaces = nic.link2() == null ? List.of(nic.rawInterface()) : List.of(nic.rawInterface(), nic.link2());
        for (String iface : ifaces) {
            var netdev = NetdevMtu.of(iface);
            int allowed = netdev.isPresent() ? NetdevMtu.ibMtuFor(netdev.getAsInt()) : mtu;
            if (allowed < mtu) {
                mtu = allowed;
                if (run != null) {
                    run.note(iface + "'s MTU is " + netdev.getAsInt() + ": the port's active MTU is " + mtu
                            + " (as rxe: the MTU less " + NetdevMtu.RXE_MAX_HDR_LENGTH + " header bytes, down to an IB MTU)");
                }
            }
        }
        return mtu;
    }

    /** What the soft NIC engine cannot do, said the way perftest says what it cannot do: one line. */
    private void check(PerftestOptions o) {
        if (nic.dataPath() == NicOptions.DataPath.NONE) {
            throw new OptionException(" rocelab needs a data path: --udp-frame LPORT:RPORT (to another rocelab"
                    + " or a qemu VM), --udp-endpoint LOCAL_IP (to another rocelab over IP), --raw IFACE (a Linux"
                    + " interface) or --in-process (server and client in this process)");
        }
        checkSupported(o, nic.ip6For(o.isServer()), nic.roceV1());
        if (o.ibPort() == 2 && nic.bond() != null) {
            throw new OptionException(" -i 2: with --bond the two ports are one, port 1");
        }
        if (o.dualPort() && (nic.bond() != null || !nic.hasPort2())) {
            // perftest's set_link_layer: ibv_query_port(ib_port2) fails on a device of one port
            throw new OptionException(" Unable to query port 2 attributes: " + (nic.bond() != null
                    ? "with --bond the two ports are one, port 1" : "the NIC has no port 2 here: --in-process cables"
                    + " one, --udp-frame2 or --raw2 gives one"));
        }
        if (o.ibPort() == 2 && !nic.hasPort2()) {
            throw new OptionException(" -i 2: the NIC has no port 2 here: --in-process cables one, --udp-frame2 or"
                    + " --raw2 gives one");
        }
        if (nic.dataPath() == NicOptions.DataPath.UDP_ENDPOINT && o.gidIndex() != -1
                && o.gidIndex() != SoftNic.GID_INDEX_IPV4) {
            throw new OptionException(" --udp-endpoint carries RoCEv2 over IPv4 only: use GID index "
                    + SoftNic.GID_INDEX_IPV4 + " (the IPv4-mapped GID), not " + o.gidIndex());
        }
        if (nic.dataPath() == NicOptions.DataPath.UDP_ENDPOINT && o.ipv6()) {
            throw new OptionException(" --udp-endpoint carries RoCEv2 over IPv4 only; --ipv6 needs --udp-frame"
                    + " or --in-process");
        }
    }

    /**
     * The NIC's GID table in words, for a message about a GID index that is not in it: "rocelab0's
     * GID table has 3 entries (0 link-local IPv6, 1 IPv4-mapped, 2 fd77::100); --ip6 ADDR gives
     * the NIC a global IPv6 address, GID index 3".
     */
    static String describeGidTable(List<String> ipv6) {
        return describeGidTable(ipv6, false);
    }

    /**
     * The same for a NIC with RoCEv1 GIDs ({@code --roce-v1}): each address twice, v1 then v2, "(0
     * link-local IPv6 v1, 1 link-local IPv6 v2, 2 IPv4-mapped v1, 3 IPv4-mapped v2)".
     */
    static String describeGidTable(List<String> ipv6, boolean roceV1) {
        List<String> addresses = new java.util.ArrayList<>(List.of("link-local IPv6", "IPv4-mapped"));
        addresses.addAll(ipv6);
        int per = roceV1 ? 2 : 1;
        StringBuilder sb = new StringBuilder(NicEngine.DEVICE_NAME).append("'s GID table has ")
                .append(per * addresses.size()).append(" entries (");
        for (int i = 0; i < addresses.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            if (roceV1) {
                sb.append(2 * i).append(' ').append(addresses.get(i)).append(" v1, ")
                        .append(2 * i + 1).append(' ').append(addresses.get(i)).append(" v2");
            } else {
                sb.append(i).append(' ').append(addresses.get(i));
            }
        }
        return sb.append("); --ip6 ADDR gives the NIC a global IPv6 address, GID index ")
                .append(per * addresses.size()).toString();
    }

    /** What a soft NIC with no global IPv6 address cannot do: one line, as perftest says it. */
    static void checkSupported(PerftestOptions o) {
        checkSupported(o, List.of());
    }

    /**
     * What the soft NIC engine cannot do, whatever its data path: one line, as perftest says it.
     *
     * @param ipv6 the NIC's global IPv6 addresses (GID index 2 on)
     */
    static void checkSupported(PerftestOptions o, List<String> ipv6) {
        checkSupported(o, ipv6, false);
    }

    /**
     * The same on a NIC that lists RoCEv1 GIDs too when {@code roceV1} ({@code --roce-v1}: twice as
     * many entries, the IPv4-mapped RoCEv2 GID at index 3).
     */
    static void checkSupported(PerftestOptions o, List<String> ipv6, boolean roceV1) {
        if (o.srq() && o.connection() == ConnectionType.UC) {
            // IBA 10.2.9.2 lets only RC (and XRC) and UD QPs take receives from an SRQ
            throw new OptionException(" UC QPs cannot use an SRQ (--use-srq): use RC or UD");
        }
        if (o.device() != null && !NicEngine.DEVICE_NAME.equals(o.device())) {
            throw new OptionException(" IB device " + o.device() + " not found; rocelab's soft NIC is "
                    + NicEngine.DEVICE_NAME);
        }
        if (o.ibPort() > 2) {
            throw new OptionException(" " + NicEngine.DEVICE_NAME + " has two ports at most; -i " + o.ibPort()
                    + " does not exist");
        }
        int per = roceV1 ? 2 : 1;
        int tableSize = per * (SoftNic.GID_INDEX_FIRST_IPV6 + ipv6.size());
        if (o.gidIndex() >= tableSize) {
            throw new OptionException(" GID index " + o.gidIndex() + " does not exist: "
                    + describeGidTable(ipv6, roceV1));
        }
        int ipv4V2 = per * SoftNic.GID_INDEX_IPV4 + (per - 1);
        if (o.rdmaCm() && (o.ipv6() || o.gidIndex() != -1 && o.gidIndex() != ipv4V2)) {
            throw new OptionException(" rocelab's rdma_cm (-R) connects over IPv4 RoCEv2: use GID index "
                    + ipv4V2 + " (the IPv4-mapped " + (roceV1 ? "RoCEv2 " : "") + "GID) and no --ipv6");
        }
    }
}
