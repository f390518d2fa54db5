package io.rocelab.perftest.pingpong;

import java.util.List;
import java.util.Optional;

/**
 * rdma-core's three pingpong examples, {@code ibv_rc_pingpong}, {@code ibv_uc_pingpong} and
 * {@code ibv_ud_pingpong}: the same exchange and loop over a different transport, each with its
 * own flags and defaults (UD has no path MTU, a smaller default message and a GRH area in front
 * of each receive buffer).
 */
public enum PingpongKind {
    RC("ibv_rc_pingpong", 4096, true, List.of(
            LongOption.withValue("port", 'p'), LongOption.withValue("ib-dev", 'd'),
            LongOption.withValue("ib-port", 'i'), LongOption.withValue("size", 's'),
            LongOption.withValue("mtu", 'm'), LongOption.withValue("rx-depth", 'r'),
            LongOption.withValue("iters", 'n'), LongOption.withValue("sl", 'l'), LongOption.flag("events", 'e'),
            LongOption.withValue("gid-idx", 'g'), LongOption.flag("odp", 'o'), LongOption.flag("iodp", 'O'),
            LongOption.flag("prefetch", 'P'), LongOption.flag("ts", 't'), LongOption.flag("chk", 'c'),
            LongOption.flag("dm", 'j'), LongOption.flag("new_send", 'N'), LongOption.flag("help", 'h'))),
    UC("ibv_uc_pingpong", 4096, true, List.of(
            LongOption.withValue("port", 'p'), LongOption.withValue("ib-dev", 'd'),
            LongOption.withValue("ib-port", 'i'), LongOption.withValue("size", 's'),
            LongOption.withValue("mtu", 'm'), LongOption.withValue("rx-depth", 'r'),
            LongOption.withValue("iters", 'n'), LongOption.withValue("sl", 'l'), LongOption.flag("events", 'e'),
            LongOption.withValue("gid-idx", 'g'), LongOption.flag("chk", 'c'), LongOption.flag("help", 'h'))),
    UD("ibv_ud_pingpong", 1024, false, List.of(
            LongOption.withValue("port", 'p'), LongOption.withValue("ib-dev", 'd'),
            LongOption.withValue("ib-port", 'i'), LongOption.withValue("size", 's'),
            LongOption.withValue("rx-depth", 'r'), LongOption.withValue("iters", 'n'),
            LongOption.withValue("sl", 'l'), LongOption.flag("events", 'e'), LongOption.withValue("gid-idx", 'g'),
            LongOption.flag("chk", 'c'), LongOption.flag("help", 'h')));

    /** One long option and the short flag it stands for, as in a {@code struct option} table. */
    public record LongOption(String name, char shortName, boolean hasValue) {
        static LongOption withValue(String name, char shortName) {
            return new LongOption(name, shortName, true);
        }

        static LongOption flag(String name, char shortName) {
            return new LongOption(name, shortName, false);
        }
    }

    /** The Q_Key both sides of ibv_ud_pingpong use. */
    public static final int UD_QKEY = 0x11111111;
    /** The GRH area in front of every UD receive buffer. */
    public static final int GRH_BYTES = 40;

    private final String toolName;
    private final int defaultSize;
    private final boolean hasMtu;
    private final List<LongOption> options;

    PingpongKind(String toolName, int defaultSize, boolean hasMtu, List<LongOption> options) {
        this.toolName = toolName;
        this.defaultSize = defaultSize;
        this.hasMtu = hasMtu;
        this.options = options;
    }

    public String toolName() {
        return toolName;
    }

    /** {@code -s} when not given: 4096 for RC and UC, 1024 for UD. */
    public int defaultSize() {
        return defaultSize;
    }

    /** Whether the tool takes {@code -m} (UD's path is one packet, bounded by the port MTU). */
    public boolean hasMtu() {
        return hasMtu;
    }

    /** The tool's options (the short forms are the tool's getopt string). */
    public List<LongOption> options() {
        return options;
    }

    /** The option with this short name, or empty when the tool has none. */
    public Optional<LongOption> option(char shortName) {
        return options.stream().filter(o -> o.shortName() == shortName).findFirst();
    }

    /** The tool by its rdma-core name. */
    public static Optional<PingpongKind> ofToolName(String name) {
        for (PingpongKind k : values()) {
            if (k.toolName.equals(name)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /** The usage text, rdma-core's flags with the soft NIC's defaults. */
    public String usage() {
        StringBuilder sb = new StringBuilder();
        sb.append("Usage:\n");
        sb.append("  ").append(toolName).append("            start a server and wait for connection\n");
        sb.append("  ").append(toolName).append(" <host>     connect to server at <host>\n\n");
        sb.append("Options:\n");
        sb.append("  -p, --port=<port>      listen on/connect to port <port> (default 18515)\n");
        sb.append("  -d, --ib-dev=<dev>     use IB device <dev> (default rocelab0, the only one)\n");
        sb.append("  -i, --ib-port=<port>   use port <port> of IB device (default 1)\n");
        sb.append("  -s, --size=<size>      size of message to exchange (default ").append(defaultSize).append(")\n");
        if (hasMtu) {
            sb.append("  -m, --mtu=<size>       path MTU (default 1024)\n");
        }
        sb.append("  -r, --rx-depth=<dep>   number of receives to post at a time (default 500)\n");
        sb.append("  -n, --iters=<iters>    number of exchanges (default 1000)\n");
        sb.append("  -l, --sl=<sl>          service level value\n");
        sb.append("  -e, --events           sleep on CQ events (default poll)\n");
        sb.append("  -g, --gid-idx=<gid index> local port gid index (default 1, the IPv4-mapped GID;"
                + " 0 link-local IPv6, 2 --ip6's IPv6 address; RoCE needs one)\n");
        sb.append("  -c, --chk              validate received buffer\n");
        if (this == RC) {
            sb.append("  -N, --new_send         use new post send WR API\n");
            sb.append("  -o, -O, -P, -t, -j     on-demand paging, prefetch, CQE timestamps, device memory:"
                    + " not on the soft NIC\n");
        }
        sb.append("  -h, --help             this text\n");
        return sb.toString();
    }
}
