package io.rocelab.perftest.nic;

import io.rocelab.fabric.raw.RawBackend;
import io.rocelab.nic.BondMode;
import io.rocelab.perftest.cli.OptionException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * rocelab's own flags of the perftest tools: where the soft NIC's frames go and what the NIC is
 * (its addresses, port MTU, the seed of its PSNs). perftest knows nothing of them, so they are
 * taken out of the command line before perftest's parser sees the rest.
 *
 * <pre>
 *   --udp-frame LPORT:RPORT        frame-over-UDP on 127.0.0.1 (qemu's -netdev socket,udp= format):
 *                                  receive on LPORT, send to RPORT
 *   --udp-frame LPORT:HOST:RPORT   the same, sending to HOST (receiving on all addresses)
 *   --udp-endpoint LOCAL_IP        UDP endpoint mode: RoCEv2 packets as UDP datagrams to port 4791
 *                                  through this host's IP stack; the NIC's address is LOCAL_IP (an
 *                                  address of this host), where it receives; the peer's address comes
 *                                  from the exchanged GID; the QPs' local ACK timeout is
 *                                  -u 18 (1.07 s) unless -u is given (see NicEngineFactory)
 *   --raw IFACE                    the NIC owns the Linux interface IFACE (a veth end, a NIC; root
 *                                  and libpcap): its frames go out there whole, it answers ARP and
 *                                  neighbour solicitations for its own addresses (which the kernel
 *                                  must not have)
 *   --in-process                   server and client in this process, over an in-memory link;
 *                                  prints the client's output
 *   --ip A.B.C.D                   the NIC's IPv4 address (default 10.77.0.1 server, 10.77.0.2 client)
 *   --ip6 ADDR                     a global IPv6 address of the NIC: GID index 2 (a second one 3, ...),
 *                                  as rxe's table holds the netdev's addresses (default none; in-process
 *                                  fd77::1 server, fd77::2 client); not perftest's --ipv6, which only
 *                                  makes the automatic GID choice prefer an IPv6 GID
 *   --mac XX:XX:XX:XX:XX:XX        the NIC's MAC (default 52:54:00:77:01:01 server, :02 client)
 *   --active-mtu BYTES             the port's active MTU, 256..4096 (default 4096; on --raw no more
 *                                  than the interface's MTU allows, as rxe; perftest's -m and the
 *                                  peer's MTU lower the path MTU)
 *   --psn-seed N                   seed of the QPs' random first PSNs (default: from the MAC and IP)
 *   --capture FILE                 a pcapng of the frames the NIC sent and received (both NICs
 *                                  in-process), bounded: the first and the last N frames
 *   --capture-frames N             that N (default 1000)
 *   --cc dcqcn|none                the NIC's congestion control ({@link NicCongestion})
 *   --cc-param NAME=VALUE          a DCQCN parameter, mlx5's cc_params name (repeatable)
 *   --pfc-storm PRIO               the NIC pauses its partner's priority PRIO without end
 *   --pause-response R             how long the NIC takes to act on a received PFC pause: ieee (the
 *                                  default, IEEE 802.3 31B.3.7's bound for the link speed), 394q, 2us, 0
 *   --pause on|off                 802.3x link-level PAUSE instead of PFC, rx and tx, as
 *                                  {@code ethtool --pause DEV rx on tx on} (default off: PFC)
 *   --trust dscp|pcp               which header gives a frame its priority (mlnx_qos --trust; default dscp)
 *   --pfc 0,0,0,1,0,0,0,0          the priorities PFC pauses act on (mlnx_qos --pfc; default all)
 *   --dcbx willing|off             whether DCBX takes a not-willing link partner's settings (default willing)
 *   --roce-v1                      the NIC lists a RoCEv1 GID beside each RoCEv2 one, as mlx5 on a
 *                                  ConnectX (per address v1 then v2: 0/1 link-local, 2/3 IPv4-mapped, 4/5
 *                                  the first --ip6); perftest's -x picks a v1 GID to run RoCEv1 (default
 *                                  off: rxe's RoCEv2-only table, 0 link-local, 1 IPv4-mapped, 2 --ip6)
 * </pre>
 *
 * Each flag takes its value as the next argument or after {@code =}; picocli reads them
 * ({@link NicFlags}, everything else left in order for perftest). A bad value or combination is
 * one line, and the tool exits with status 1 as perftest does for its own flags.
 *
 * @param dataPath   where frames go
 * @param udpLocal   UDP port frames are received on (frame mode)
 * @param udpHost    where frames are sent (frame mode)
 * @param udpRemote  UDP port frames are sent to (frame mode)
 * @param ip         the NIC's IPv4 address, or null for the role's default
 * @param mac        the NIC's MAC, or null for the role's default
 * @param activeMtu  the port's active MTU in bytes
 * @param psnSeed    seed of the first PSNs, or null for one derived from the addresses
 * @param busyPoll   in-process: both NICs on one polling thread
 * @param ip6        the NIC's global IPv6 addresses ({@code --ip6}), GID index 2 on, in order; empty for none
 *                   (in-process: the role's default)
 * @param capture    the pcapng to write ({@code --capture}), or null
 * @param captureFrames frames kept at each end of the run in the capture
 * @param congestion the NIC's congestion control, PFC storm and pause response ({@code --cc},
 *                   {@code --cc-param}, {@code --pfc-storm}, {@code --pause-response})
 * @param rawIface   {@code --raw}'s value, the Linux interface the NIC owns (with {@code af_packet:} or
 *                   {@code pcap:} in front to choose the backend), or null
 * @param bond       {@code --bond}'s mode (both ports of the NIC bonded, RoCE LAG), or null
 * @param link2      port 2's link: {@code --udp-frame2}'s LPORT:HOST:RPORT or {@code --raw2}'s interface (the
 *                   same data path as port 1's), or null (in-process cables port 2 by itself)
 * @param ip2        port 2's IPv4 address ({@code --ip2}), or null for the role's default
 * @param mac2       port 2's MAC ({@code --mac2}), or null for the role's default
 * @param roceV1     {@code --roce-v1}: RoCEv1 GIDs beside the RoCEv2 ones ({@code SoftNic.Builder.roceV1})
 */
public record NicOptions(DataPath dataPath, int udpLocal, String udpHost, int udpRemote, String ip, String mac,
                         int activeMtu, Long psnSeed, boolean busyPoll, List<String> ip6, String capture,
                         int captureFrames, NicCongestion congestion, String rawIface, BondMode bond, String link2,
                         String ip2, String mac2, boolean roceV1) {

    /** The options with rxe's GID table (RoCEv2 only). */
    public NicOptions(DataPath dataPath, int udpLocal, String udpHost, int udpRemote, String ip, String mac,
                      int activeMtu, Long psnSeed, boolean busyPoll, List<String> ip6, String capture,
                      int captureFrames, NicCongestion congestion, String rawIface, BondMode bond, String link2,
                      String ip2, String mac2) {
        this(dataPath, udpLocal, udpHost, udpRemote, ip, mac, activeMtu, psnSeed, busyPoll, ip6, capture, captureFrames,
                congestion, rawIface, bond, link2, ip2, mac2, false);
    }

    /** The options without a bond. */
    public NicOptions(DataPath dataPath, int udpLocal, String udpHost, int udpRemote, String ip, String mac,
                      int activeMtu, Long psnSeed, boolean busyPoll, List<String> ip6, String capture,
                      int captureFrames, NicCongestion congestion, String rawIface) {
        this(dataPath, udpLocal, udpHost, udpRemote, ip, mac, activeMtu, psnSeed, busyPoll, ip6, capture, captureFrames,
                congestion, rawIface, null, null, null, null);
    }

    /** Port 2's IPv4 address for a side of the test: {@code --ip2}, else the role's default. */
    public String ip2For(boolean server) {
        return ip2 != null ? ip2 : server ? DEFAULT_SERVER_IP2 : DEFAULT_CLIENT_IP2;
    }

    /** Port 2's MAC for a side of the test: {@code --mac2}, else the role's default. */
    public String mac2For(boolean server) {
        return mac2 != null ? mac2 : server ? DEFAULT_SERVER_MAC2 : DEFAULT_CLIENT_MAC2;
    }

    /** Whether the NIC has a port 2: {@code --in-process} cables one, the other paths with {@code --udp-frame2}/{@code --raw2}. */
    public boolean hasPort2() {
        return dataPath == DataPath.IN_PROCESS || link2 != null;
    }

    /** Where the NIC's frames go. */
    public enum DataPath {
        /** No data path chosen: the tool cannot run. */
        NONE,
        /** A frame-over-UDP port: another rocelab process or a qemu VM at the other end. */
        UDP_FRAME,
        /** Both sides in this process over an in-memory link. */
        IN_PROCESS,
        /**
         * UDP endpoint mode: the NIC's packets go through the host's IP stack as UDP datagrams to
         * port 4791 of the peer's address; the NIC's own address ({@link #ip}) is where it receives.
         */
        UDP_ENDPOINT,
        /** A Linux interface the NIC owns: raw Ethernet frames through libpcap ({@code --raw IFACE}). */
        RAW
    }

    /** The default active MTU of the soft NIC's port. */
    public static final int DEFAULT_ACTIVE_MTU = 4096;
    /** Server's default address; a client defaults to {@link #DEFAULT_CLIENT_IP}. */
    public static final String DEFAULT_SERVER_IP = "10.77.0.1";
    public static final String DEFAULT_CLIENT_IP = "10.77.0.2";
    public static final String DEFAULT_SERVER_MAC = "52:54:00:77:01:01";
    public static final String DEFAULT_CLIENT_MAC = "52:54:00:77:01:02";
    /** The in-process NICs' port 2 (perftest's {@code -i 2}), on a second cable: the server's address. */
    public static final String DEFAULT_SERVER_IP2 = "10.78.0.1";
    public static final String DEFAULT_CLIENT_IP2 = "10.78.0.2";
    public static final String DEFAULT_SERVER_MAC2 = "52:54:00:78:01:01";
    public static final String DEFAULT_CLIENT_MAC2 = "52:54:00:78:01:02";
    /**
     * The in-process server's global IPv6 address (GID index 2), beside {@link #DEFAULT_SERVER_IP};
     * the client has {@link #DEFAULT_CLIENT_IP6}. Other data paths have none unless {@code --ip6}
     * gives one: a NIC on a shared link answers neighbour solicitations for its addresses, and a
     * default one could claim a neighbour's.
     */
    public static final String DEFAULT_SERVER_IP6 = "fd77::1";
    public static final String DEFAULT_CLIENT_IP6 = "fd77::2";
    /** Frames {@code --capture} keeps at the start and at the end of a run unless {@code --capture-frames} says. */
    public static final int DEFAULT_CAPTURE_FRAMES = 1000;
    static final int MAX_CAPTURE_FRAMES = 1_000_000;


    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern MAC = Pattern.compile("[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}");

    /**
     * The help lines of rocelab's flags, shown under the tool's own usage, with worked examples
     * against a qemu VM running rdma_rxe in both directions.
     *
     * @param tool     the tool's name, e.g. "ib_write_bw"
     * @param perftest a perftest tool (GID index {@code -x}, ACK timeout {@code -u}), else an
     *                 rdma-core pingpong ({@code -g})
     */
    public static String usage(String tool, boolean perftest) {
        String gid = perftest ? "-d rxe0 -F -x 1" : "-g 1";
        String here = perftest ? " -F" : "";
        return java.util.stream.Stream.of(
            "rocelab data path (one of them is required):",
            "  --udp-frame LPORT:RPORT       frames as UDP datagrams on 127.0.0.1 (qemu -netdev socket,udp=):"
                    + " receive on LPORT, send to RPORT" + (perftest ? "; without -u, a 1 s local ACK timeout"
                    + " (-u 18, not 14)" : ""),
            "  --udp-frame LPORT:HOST:RPORT  the same, sending to HOST",
            "  --udp-endpoint LOCAL_IP       RoCEv2 over this host's UDP stack (port 4791 on LOCAL_IP, an address"
                    + " of this host; the NIC's IP)" + (perftest ? "; without -u, a 1 s local ACK timeout (-u 18,"
                    + " not 14)" : ""),
            "                                it sees no ECN marks, so it sends no CNPs and --cc dcqcn never cuts a"
                    + " rate: the TOS byte of a received datagram never reaches Java (Netty sets no IP_RECVTOS and"
                    + " its native recvmsg passes on no IP_TOS control message)",
            "  --raw IFACE                   the NIC on the Linux interface IFACE (a veth end or a NIC; root; AF_PACKET,"
                    + " else libpcap: af_packet:IFACE or pcap:IFACE choose):"
                    + " frames whole, it answers ARP/ND for its own --ip/--ip6, which the kernel must not have"
                    + (perftest ? "; without -u, a 1 s local ACK timeout (-u 18)" : ""),
            "  --in-process                  server and client in this process; prints the client's output",
            "  --udp-frame2 LPORT:RPORT      port 2 of the NIC on a second frame-over-UDP link (LPORT:HOST:RPORT too);"
                    + " -i 2 uses it",
            "  --raw2 IFACE                  port 2 of the NIC on a second Linux interface (with --raw); -i 2 uses it",
            "  --ip2 A.B.C.D, --mac2 MAC     port 2's addresses (default " + DEFAULT_SERVER_IP2 + " / " + DEFAULT_SERVER_MAC2
                    + " server, " + DEFAULT_CLIENT_IP2 + " / " + DEFAULT_CLIENT_MAC2 + " client); --in-process cables"
                    + " port 2 itself",
            "  --bond MODE                   both ports of the NIC bonded (RoCE LAG; --in-process, or a second link):"
                    + " MODE active-backup, balance-xor or 802.3ad (LACP at lacp_rate fast), the hash layer3+4",
            "  --busy-poll                   with --in-process: both NICs on one thread that polls instead of"
                    + " sleeping (lower typical latency; it takes a whole core, so with fewer than three the tail"
                    + " grows)",
            "rocelab NIC:",
            "  --ip A.B.C.D                  NIC IPv4 address (default " + DEFAULT_SERVER_IP + " server, "
                    + DEFAULT_CLIENT_IP + " client)",
            "  --mac XX:XX:XX:XX:XX:XX       NIC MAC (default " + DEFAULT_SERVER_MAC + " server, "
                    + DEFAULT_CLIENT_MAC + " client)",
            "  --ip6 ADDR                    a global IPv6 address of the NIC: GID index 2 (again for 3, ...);"
                    + " GID 0 is the link-local address from the MAC, GID 1 the IPv4-mapped one, as on rxe"
                    + " (default none; --in-process: " + DEFAULT_SERVER_IP6 + " server, " + DEFAULT_CLIENT_IP6
                    + " client). Use it with -x 2 / -g 2; perftest's --ipv6 picks GID 0",
            "  --active-mtu BYTES            port MTU 256|512|1024|2048|4096 (default " + DEFAULT_ACTIVE_MTU
                    + "; on --raw at most the interface's MTU less 80, as rxe)",
            "  --psn-seed N                  seed of the random first PSNs (default: from the addresses)",
            "  --roce-v1                     a ConnectX's GID table: each address a RoCEv1 GID, then a RoCEv2 one"
                    + " (0/1 link-local, 2/3 IPv4-mapped, 4/5 --ip6's); -x 2 runs RoCEv1 (EtherType 0x8915),"
                    + " -x 3 RoCEv2 (the default choice); not with --udp-endpoint",
            String.join("\n", NicCongestion.USAGE),
            "rocelab diagnostics:",
            "  --capture FILE                pcapng of the frames the NIC sent and received (both NICs with"
                    + " --in-process), bounded: the first and the last N frames, the gap commented",
            "  --capture-frames N            that N (default " + DEFAULT_CAPTURE_FRAMES + ")",
            "  a run that fails or is interrupted (Ctrl-C) prints the NIC's non-zero counters on stderr",
            (perftest ? "  -W hw_counters/NAME,...       perftest's counter report: the soft NIC's counters under rxe's"
                    + " names (sent_pkts, rcvd_pkts, duplicate_request, completer_retry_err, ...)" : null),
            "rocelab against a qemu VM with rdma_rxe on 10.77.0.0/24 (the defaults above are on it: rocelab's"
                    + " server is 10.77.0.1, its client 10.77.0.2; give the VM the other address or set --ip/--mac):",
            "  the VM's RoCE NIC   -netdev socket,id=n0,udp=127.0.0.1:41001,localaddr=127.0.0.1:41000"
                    + " (it receives on 41000, sends to 41001): rocelab takes the pair reversed, --udp-frame 41001:41000",
            "  the TCP exchange    a second NIC, -netdev user,id=n1,hostfwd=tcp:127.0.0.1:18515-:18515; from the VM"
                    + " the host's 127.0.0.1 is 10.0.2.2",
            "  rocelab client, VM server (VM 10.77.0.1; once the VM's server listens):",
            "    in the VM:  " + tool + " " + gid,
            "    here:       ./rocelab " + tool + " --udp-frame 41001:41000" + here + " 127.0.0.1",
            "  VM client, rocelab server (VM 10.77.0.2; once rocelab's server waits):",
            "    here:       ./rocelab " + tool + " --udp-frame 41001:41000" + here,
            "    in the VM:  " + tool + " " + gid + " 10.0.2.2",
            "  (interop/README.md does the same with interop/boot-vm.sh)")
            .filter(Objects::nonNull).collect(java.util.stream.Collectors.joining("\n", "", "\n"));
    }

    public NicOptions {
        Objects.requireNonNull(dataPath, "dataPath");
        Objects.requireNonNull(congestion, "congestion");
        ip6 = ip6 == null ? List.of() : List.copyOf(ip6);
        if (captureFrames < 1 || captureFrames > MAX_CAPTURE_FRAMES) {
            throw new IllegalArgumentException("captureFrames must be 1.." + MAX_CAPTURE_FRAMES + ": " + captureFrames);
        }
    }

    /** Not on a Linux interface. */
    public NicOptions(DataPath dataPath, int udpLocal, String udpHost, int udpRemote, String ip, String mac,
                      int activeMtu, Long psnSeed, boolean busyPoll, List<String> ip6, String capture,
                      int captureFrames, NicCongestion congestion) {
        this(dataPath, udpLocal, udpHost, udpRemote, ip, mac, activeMtu, psnSeed, busyPoll, ip6, capture,
                captureFrames, congestion, null);
    }

    /** Without congestion control or a storm ({@link NicCongestion#NONE}). */
    public NicOptions(DataPath dataPath, int udpLocal, String udpHost, int udpRemote, String ip, String mac,
                      int activeMtu, Long psnSeed, boolean busyPoll, List<String> ip6, String capture,
                      int captureFrames) {
        this(dataPath, udpLocal, udpHost, udpRemote, ip, mac, activeMtu, psnSeed, busyPoll, ip6, capture,
                captureFrames, NicCongestion.NONE, null);
    }

    /** Without global IPv6 addresses of its own ({@code --ip6}) and without a capture. */
    public NicOptions(DataPath dataPath, int udpLocal, String udpHost, int udpRemote, String ip, String mac,
                      int activeMtu, Long psnSeed, boolean busyPoll) {
        this(dataPath, udpLocal, udpHost, udpRemote, ip, mac, activeMtu, psnSeed, busyPoll, List.of(), null,
                DEFAULT_CAPTURE_FRAMES);
    }

    /** @return the interface of {@code --raw} without the backend in front, or null */
    public String rawInterface() {
        return rawIface == null ? null : rawIface.substring(rawIface.indexOf(':') + 1);
    }

    /** @return the backend {@code --raw} names, {@link RawBackend#AUTO} (AF_PACKET, else libpcap) without one */
    public RawBackend rawBackend() {
        return rawIface == null || rawIface.indexOf(':') < 0 ? RawBackend.AUTO
                : RawBackend.parse(rawIface.substring(0, rawIface.indexOf(':')));
    }

    /** The command line split in two: rocelab's flags, and what is left for perftest. */
    public record Split(NicOptions nic, String[] perftestArgs) {
    }

    /** This NIC's address for a side of the test. */
    public String ipFor(boolean server) {
        return ip != null ? ip : server ? DEFAULT_SERVER_IP : DEFAULT_CLIENT_IP;
    }

    /**
     * This NIC's congestion control and storm for a side of the test: with {@code --in-process}
     * only the server's NIC storms (the client's is its victim).
     */
    public NicCongestion congestionFor(boolean server) {
        return dataPath == DataPath.IN_PROCESS && !server ? congestion.withoutStorm() : congestion;
    }

    /** This NIC's MAC for a side of the test. */
    public String macFor(boolean server) {
        return mac != null ? mac : server ? DEFAULT_SERVER_MAC : DEFAULT_CLIENT_MAC;
    }

    /**
     * This NIC's global IPv6 addresses for a side of the test (GID index 2 on): {@code --ip6}'s, or
     * in-process the role's default.
     */
    public List<String> ip6For(boolean server) {
        if (!ip6.isEmpty() || dataPath != DataPath.IN_PROCESS) {
            return ip6;
        }
        return List.of(server ? DEFAULT_SERVER_IP6 : DEFAULT_CLIENT_IP6);
    }

    /**
     * Takes rocelab's flags out of a tool's command line.
     *
     * @throws OptionException one line naming the bad flag, value or combination
     */
    public static Split split(String[] args) {
        Objects.requireNonNull(args, "args");
        int end = Arrays.asList(args).indexOf("--");
        NicFlags flags = NicFlags.parse(end < 0 ? args : Arrays.copyOf(args, end));
        List<String> rest = new ArrayList<>(flags.perftestArgs);
        if (end >= 0) {
            rest.addAll(Arrays.asList(args).subList(end, args.length));
        }
        DataPath path = DataPath.NONE;
        int lport = 0;
        int rport = 0;
        String host = null;
        String ip = null;
        String mac = null;
        List<String> ip6 = new ArrayList<>();
        int mtu = DEFAULT_ACTIVE_MTU;
        Long seed = null;
        boolean udpGiven = false;
        boolean inProcessGiven = flags.inProcess;
        boolean busyPoll = flags.busyPoll;
        BondMode bond = null;
        String link2 = null;
        boolean udp2 = false;
        boolean raw2 = false;
        String ip2 = null;
        String mac2 = null;
        String endpoint = null;
        String raw = null;
        String capture = null;
        Integer captureFrames = null;
        String cc = last(flags.cc);
        List<String> ccParams = flags.ccParams;
        String pfcStorm = last(flags.pfcStorm);
        String pauseResponse = last(flags.pauseResponse);
        String pause = last(flags.pause);
        for (String v : flags.bond) {
            try {
                bond = BondMode.parse(v);
            } catch (IllegalArgumentException e) {
                throw new OptionException(" --bond: " + e.getMessage());
            }
        }
        for (String v : flags.udpFrame) {
            String[] parts = v.split(":", -1);
            if (parts.length == 2) {
                host = "127.0.0.1";
                lport = port(parts[0], v, false);
                rport = port(parts[1], v, true);
            } else if (parts.length == 3 && !parts[1].isEmpty()) {
                host = parts[1];
                lport = port(parts[0], v, false);
                rport = port(parts[2], v, true);
            } else {
                throw new OptionException(" --udp-frame wants LPORT:RPORT or LPORT:HOST:RPORT, got '" + v + "'");
            }
            udpGiven = true;
        }
        for (String v : flags.udpEndpoint) {
            endpoint = checkEndpoint(v);
        }
        for (String v : flags.raw) {
            String iface = v.substring(v.indexOf(':') + 1);
            String kind = v.indexOf(':') < 0 ? "" : v.substring(0, v.indexOf(':'));
            if (iface.isEmpty() || iface.length() > 15 || !iface.matches("[^/\\s:]+")
                    || !List.of("", "af_packet", "pcap").contains(kind)) {
                throw new OptionException(" --raw wants a Linux interface name like veth0 (af_packet:veth0 or"
                        + " pcap:veth0 to choose how), got '" + v + "'");
            }
            raw = v;
        }
        for (String v : flags.udpFrame2) {
            String[] parts = v.split(":", -1);
            if (parts.length == 2) {
                link2 = port(parts[0], v, false) + ":127.0.0.1:" + port(parts[1], v, true);
            } else if (parts.length == 3 && !parts[1].isEmpty()) {
                link2 = port(parts[0], v, false) + ":" + parts[1] + ":" + port(parts[2], v, true);
            } else {
                throw new OptionException(" --udp-frame2 wants LPORT:RPORT or LPORT:HOST:RPORT, got '" + v + "'");
            }
            udp2 = true;
        }
        for (String v : flags.raw2) {
            if (v.isEmpty() || v.length() > 15 || !v.matches("[^/\\s:]+")) {
                throw new OptionException(" --raw2 wants a Linux interface name like veth1, got '" + v + "'");
            }
            link2 = v;
            raw2 = true;
        }
        for (String v : flags.ip2) {
            ip2 = checkIpv4(v);
        }
        for (String v : flags.mac2) {
            if (!MAC.matcher(v).matches() || (Integer.parseInt(v.substring(0, 2), 16) & 1) != 0) {
                throw new OptionException(" --mac2 wants a unicast MAC like 52:54:00:78:01:01, got '" + v + "'");
            }
            mac2 = v.toLowerCase(Locale.ROOT);
        }
        for (String v : flags.ip) {
            ip = checkIpv4(v);
        }
        for (String v : flags.ip6) {
            ip6.add(checkIpv6(v));
        }
        for (String v : flags.mac) {
            if (!MAC.matcher(v).matches()) {
                throw new OptionException(" --mac wants six hex bytes like 52:54:00:77:01:01, got '" + v + "'");
            }
            if ((Integer.parseInt(v.substring(0, 2), 16) & 1) != 0) {
                throw new OptionException(" --mac must be a unicast address (first byte even), got '" + v + "'");
            }
            mac = v.toLowerCase(Locale.ROOT);
        }
        for (String v : flags.activeMtu) {
            mtu = switch (v) {
                case "256", "512", "1024", "2048", "4096" -> Integer.parseInt(v);
                default -> throw new OptionException(" --active-mtu must be 256, 512, 1024, 2048 or 4096, got '"
                        + v + "'");
            };
        }
        for (String v : flags.capture) {
            if (v.isEmpty()) {
                throw new OptionException(" --capture needs a file name");
            }
            capture = v;
        }
        for (String v : flags.captureFrames) {
            try {
                captureFrames = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                captureFrames = 0;
            }
            if (captureFrames < 1 || captureFrames > MAX_CAPTURE_FRAMES) {
                throw new OptionException(" --capture-frames wants a whole number 1.." + MAX_CAPTURE_FRAMES
                        + ", got '" + v + "'");
            }
        }
        for (String v : flags.psnSeed) {
            try {
                seed = Long.decode(v);
            } catch (NumberFormatException e) {
                throw new OptionException(" --psn-seed wants an integer, got '" + v + "'");
            }
        }
        if ((udpGiven ? 1 : 0) + (inProcessGiven ? 1 : 0) + (endpoint != null ? 1 : 0) + (raw != null ? 1 : 0) > 1) {
            throw new OptionException(" --udp-frame, --udp-endpoint, --raw and --in-process are different data paths;"
                    + " choose one");
        }
        if (udp2 && raw2) {
            throw new OptionException(" --udp-frame2 and --raw2 are two links for one port 2; choose one");
        }
        if (udp2 && !udpGiven || raw2 && raw == null) {
            throw new OptionException(" port 2's link is of port 1's kind: --udp-frame2 with --udp-frame, --raw2 with --raw");
        }
        if ((ip2 != null || mac2 != null) && (inProcessGiven || link2 == null)) {
            throw new OptionException(" --ip2 and --mac2 are port 2's addresses, for --udp-frame2 or --raw2"
                    + (inProcessGiven ? "; --in-process uses the defaults" : ""));
        }
        if (bond != null && !inProcessGiven && link2 == null) {
            throw new OptionException(" --bond needs a second port: --in-process, or --udp-frame2 / --raw2");
        }
        if (bond != null && (ip2 != null || mac2 != null)) {
            throw new OptionException(" --bond puts port 2 behind port 1's --ip and --mac; --ip2 and --mac2 do not apply");
        }
        if (busyPoll && !inProcessGiven) {
            throw new OptionException(" --busy-poll is for --in-process, where one process runs both NICs");
        }
        if (endpoint != null) {
            path = DataPath.UDP_ENDPOINT;
            if (ip != null && !ip.equals(endpoint)) {
                throw new OptionException(" --udp-endpoint " + endpoint + " is the NIC's address; --ip " + ip
                        + " cannot differ from it");
            }
            if (!ip6.isEmpty()) {
                throw new OptionException(" --udp-endpoint carries RoCEv2 over IPv4 only; --ip6 is for --udp-frame");
            }
            ip = endpoint;
        } else if (raw != null) {
            path = DataPath.RAW;
        } else if (udpGiven) {
            path = DataPath.UDP_FRAME;
            if (lport == rport && isLoopback(host)) {
                throw new OptionException(" --udp-frame: LPORT and RPORT are both " + lport
                        + " on this host; the NIC would talk to itself");
            }
        } else if (inProcessGiven) {
            path = DataPath.IN_PROCESS;
            if (ip != null || mac != null || !ip6.isEmpty()) {
                throw new OptionException(" --ip, --ip6 and --mac are for one side of a test; --in-process runs both"
                        + " sides with the default addresses");
            }
        }
        if (captureFrames != null && capture == null) {
            throw new OptionException(" --capture-frames is for --capture FILE");
        }
        if (flags.roceV1 && path == DataPath.UDP_ENDPOINT) {
            throw new OptionException(" --roce-v1: RoCEv1 is not IP (EtherType 0x8915); --udp-endpoint carries"
                    + " RoCEv2 through the host's IP stack only: use --udp-frame, --raw or --in-process");
        }
        NicCongestion congestion = NicCongestion.parse(cc, ccParams, pfcStorm, pauseResponse)
                .withDcb(NicCongestion.parseDcb(last(flags.trust), last(flags.pfc), last(flags.dcbx)))
                .withLinkPause(pause, pfcStorm != null || last(flags.pfc) != null);
        return new Split(new NicOptions(path, lport, host, rport, ip, mac, mtu, seed, busyPoll, ip6, capture,
                captureFrames != null ? captureFrames : DEFAULT_CAPTURE_FRAMES, congestion, raw, bond, link2, ip2, mac2,
                flags.roceV1),
                rest.toArray(new String[0]));
    }

    /** A flag's last value, or null if it was not given: a later flag overrides an earlier one. */
    private static String last(List<String> given) {
        return given.isEmpty() ? null : given.get(given.size() - 1);
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    private static int port(String text, String whole, boolean remote) {
        int p;
        try {
            p = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new OptionException(" --udp-frame: '" + text + "' in '" + whole + "' is not a UDP port");
        }
        if (p < (remote ? 1 : 0) || p > 65535) {
            throw new OptionException(" --udp-frame: " + (remote ? "RPORT" : "LPORT") + " must be "
                    + (remote ? "1" : "0") + "..65535, got " + p);
        }
        return p;
    }

    /** LOCAL_IP of --udp-endpoint: dotted IPv4, unicast; loopback addresses are fine (one host). */
    private static String checkEndpoint(String v) {
        var m = IPV4.matcher(v);
        boolean ok = m.matches();
        for (int g = 1; ok && g <= 4; g++) {
            ok = Integer.parseInt(m.group(g)) <= 255;
        }
        if (!ok) {
            throw new OptionException(" --udp-endpoint wants this host's IPv4 address like 10.99.0.1, got '" + v + "'");
        }
        int first = Integer.parseInt(m.group(1));
        if (first == 0 || first >= 224) {
            throw new OptionException(" --udp-endpoint must be a unicast address of this host, got '" + v + "'");
        }
        return v;
    }

    /** {@code --ip6}: a global unicast IPv6 address (the link-local one comes from the MAC), as typed. */
    private static String checkIpv6(String v) {
        io.rocelab.nic.net.Gid g;
        try {
            g = v.indexOf(':') < 0 ? null : io.rocelab.nic.net.Gid.ipv6(v);
        } catch (IllegalArgumentException e) {
            g = null;
        }
        if (g == null) {
            throw new OptionException(" --ip6 wants an IPv6 address like fd77::100, got '" + v + "'");
        }
        byte[] b = g.toBytes();
        boolean loopback = b[15] == 1 && java.util.Arrays.equals(java.util.Arrays.copyOf(b, 15), new byte[15]);
        if (g.isLinkLocal()) {
            throw new OptionException(" --ip6 " + v + " is link-local; the NIC's link-local address (GID index 0)"
                    + " comes from its MAC: give a global address like fd77::100");
        }
        if (g.isIpv4Mapped() || g.isMulticast() || g.isUnspecified() || loopback) {
            throw new OptionException(" --ip6 must be a global unicast address (not ::, ::1, IPv4-mapped or"
                    + " multicast), got '" + v + "'");
        }
        return v;
    }

    private static String checkIpv4(String v) {
        var m = IPV4.matcher(v);
        if (!m.matches()) {
            throw new OptionException(" --ip wants an IPv4 address like 10.77.0.1, got '" + v + "'");
        }
        for (int g = 1; g <= 4; g++) {
            if (Integer.parseInt(m.group(g)) > 255) {
                throw new OptionException(" --ip wants an IPv4 address like 10.77.0.1, got '" + v + "'");
            }
        }
        int first = Integer.parseInt(m.group(1));
        if (first == 0 || first >= 224 || first == 127) {
            throw new OptionException(" --ip must be a unicast host address (not 0/8, 127/8 or multicast), got '"
                    + v + "'");
        }
        return v;
    }
}
