package io.rocelab.perftest.pingpong;

import io.rocelab.perftest.cli.CNumbers;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.oob.OobServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A pingpong tool's command line, read as rdma-core's {@code getopt_long} reads it: short flags
 * may be grouped ({@code -ec}) and take their value attached or as the next argument, long options
 * take {@code --name=value} or {@code --name value} and may be abbreviated while unambiguous,
 * options and the server name may come in any order, and {@code --} ends the options.
 *
 * <p>Where rdma-core would read "4k" as 4 or a negative port as a huge one, a bad value here is
 * one line naming the flag, and the tool exits with status 1 as rdma-core does for a bad flag.
 *
 * @param kind       which tool
 * @param port       TCP port of the exchange ({@code -p}, default 18515)
 * @param device     {@code -d}, or null for the first (only) device
 * @param ibPort     {@code -i}, default 1
 * @param size       message size in bytes ({@code -s})
 * @param mtu        path MTU in bytes ({@code -m}, RC and UC; default 1024)
 * @param rxDepth    receives kept posted ({@code -r}, default 500)
 * @param iters      exchanges ({@code -n}, default 1000)
 * @param sl         service level ({@code -l}); no effect on RoCEv2
 * @param events     {@code -e}: sleep on CQ events instead of polling
 * @param gidIndex   {@code -g}, or -1 when not given
 * @param chk        {@code -c}: validate the received buffer
 * @param newSend    {@code -N}: the new post-send API (same packets)
 * @param unsupported the first flag given that the soft NIC cannot honour (ODP, timestamps, device
 *                   memory), or null
 * @param server     the server to connect to, or null to be the server
 * @param help       {@code -h}: print the usage and stop
 */
public record PingpongOptions(PingpongKind kind, int port, String device, int ibPort, int size, int mtu,
                              int rxDepth, int iters, int sl, boolean events, int gidIndex, boolean chk,
                              boolean newSend, String unsupported, String server, boolean help) {

    public static final int DEFAULT_RX_DEPTH = 500;
    public static final int DEFAULT_ITERS = 1000;
    public static final int DEFAULT_MTU = 1024;
    /** The largest message: the buffer is one Java array. */
    public static final int MAX_SIZE = 1 << 30;

    public PingpongOptions {
        Objects.requireNonNull(kind, "kind");
    }

    public boolean isServer() {
        return server == null;
    }

    /** A copy that connects to {@code host} on {@code tcpPort} (the in-process client). */
    public PingpongOptions asClientOf(String host, int tcpPort) {
        return new PingpongOptions(kind, tcpPort, device, ibPort, size, mtu, rxDepth, iters, sl, events, gidIndex,
                chk, newSend, unsupported, host, help);
    }

    /**
     * Reads a command line.
     *
     * @throws OptionException one line, prefixed with the tool's name, naming the bad flag or value
     */
    public static PingpongOptions parse(PingpongKind kind, String[] args) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(args, "args");
        Builder b = new Builder(kind);
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ("--".equals(a)) {
                for (int j = i + 1; j < args.length; j++) {
                    positional.add(args[j]);
                }
                break;
            }
            if (a.startsWith("--")) {
                String name = a.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                PingpongKind.LongOption o = longOption(kind, name);
                if (o.hasValue()) {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw fail(kind, "option '--" + o.name() + "' requires an argument");
                        }
                        value = args[++i];
                    }
                } else if (value != null) {
                    throw fail(kind, "option '--" + o.name() + "' doesn't allow an argument");
                }
                b.set(o.shortName(), value);
            } else if (a.startsWith("-") && a.length() > 1) {
                for (int k = 1; k < a.length(); k++) {
                    char c = a.charAt(k);
                    PingpongKind.LongOption o = kind.option(c)
                            .orElseThrow(() -> fail(kind, "invalid option -- '" + c + "'"));
                    if (!o.hasValue()) {
                        b.set(c, null);
                        continue;
                    }
                    String value;
                    if (k + 1 < a.length()) {
                        value = a.substring(k + 1);
                    } else if (i + 1 < args.length) {
                        value = args[++i];
                    } else {
                        throw fail(kind, "option requires an argument -- '" + c + "'");
                    }
                    b.set(c, value);
                    break;
                }
            } else {
                positional.add(a);
            }
        }
        if (positional.size() > 1) {
            throw fail(kind, "one server name at most, got '" + positional.get(0) + "' and '" + positional.get(1) + "'");
        }
        if (!positional.isEmpty()) {
            if (positional.get(0).isEmpty()) {
                throw fail(kind, "the server name is empty");
            }
            b.server = positional.get(0);
        }
        return b.build();
    }

    private static PingpongKind.LongOption longOption(PingpongKind kind, String name) {
        PingpongKind.LongOption found = null;
        for (PingpongKind.LongOption o : kind.options()) {
            if (o.name().equals(name)) {
                return o;
            }
            if (!name.isEmpty() && o.name().startsWith(name)) {
                if (found != null) {
                    throw fail(kind, "option '--" + name + "' is ambiguous (--" + found.name() + ", --" + o.name() + ")");
                }
                found = o;
            }
        }
        if (found == null) {
            throw fail(kind, "unrecognized option '--" + name + "'");
        }
        return found;
    }

    private static OptionException fail(PingpongKind kind, String message) {
        return new OptionException(kind.toolName() + ": " + message);
    }

    private static final class Builder {
        final PingpongKind kind;
        int port = OobServer.DEFAULT_PORT;
        String device;
        int ibPort = 1;
        int size;
        int mtu = DEFAULT_MTU;
        int rxDepth = DEFAULT_RX_DEPTH;
        int iters = DEFAULT_ITERS;
        int sl;
        boolean events;
        int gidIndex = -1;
        boolean chk;
        boolean newSend;
        String unsupported;
        String server;
        boolean help;

        Builder(PingpongKind kind) {
            this.kind = kind;
            this.size = kind.defaultSize();
        }

        void set(char flag, String value) {
            switch (flag) {
                case 'p' -> port = (int) number(flag, value, 0, 65535);
                case 'd' -> {
                    if (value.isEmpty()) {
                        throw fail(kind, "-d: the device name is empty");
                    }
                    device = value;
                }
                case 'i' -> ibPort = (int) number(flag, value, 1, 255);
                case 's' -> size = (int) number(flag, value, 0, MAX_SIZE);
                case 'm' -> {
                    long m = number(flag, value, 0, Integer.MAX_VALUE);
                    if (m != 256 && m != 512 && m != 1024 && m != 2048 && m != 4096) {
                        throw fail(kind, "-m: the path MTU must be 256, 512, 1024, 2048 or 4096, got " + value);
                    }
                    mtu = (int) m;
                }
                case 'r' -> rxDepth = (int) number(flag, value, 1, 1 << 16);
                case 'n' -> iters = (int) number(flag, value, 1, Integer.MAX_VALUE);
                case 'l' -> sl = (int) number(flag, value, 0, 15);
                case 'e' -> events = true;
                case 'g' -> gidIndex = (int) number(flag, value, 0, 255);
                case 'c' -> chk = true;
                case 'N' -> newSend = true;
                case 'o', 'O', 'P' -> unsupported(flag, "on-demand paging");
                case 't' -> unsupported(flag, "CQE timestamps");
                case 'j' -> unsupported(flag, "device memory");
                case 'h' -> help = true;
                default -> throw new AssertionError(flag);
            }
        }

        private void unsupported(char flag, String what) {
            if (unsupported == null) {
                unsupported = "-" + flag + ": rocelab's soft NIC has no " + what;
            }
        }

        private long number(char flag, String value, long min, long max) {
            Long v = CNumbers.parse(value);
            if (v == null) {
                throw fail(kind, "-" + flag + ": '" + value + "' is not a number");
            }
            if (v < min || v > max) {
                throw fail(kind, "-" + flag + " must be " + min + ".." + max + ", got " + value);
            }
            return v;
        }

        PingpongOptions build() {
            return new PingpongOptions(kind, port, device, ibPort, size, mtu, rxDepth, iters, sl, events, gidIndex,
                    chk, newSend, unsupported, server, help);
        }
    }
}
