package io.rocelab.lab.switchd;

import io.rocelab.fabric.raw.RawBackend;
import java.util.Locale;

/**
 * What a {@code --port} names: a configured switch port and what it is plugged into, e.g.
 * {@code Ethernet0=udp:40010:40000} (frame-over-UDP, receiving on 127.0.0.1:40010 and sending to
 * 127.0.0.1:40000, or {@code udp:LPORT:HOST:RPORT} to another host) or {@code Ethernet0=veth:NAME}
 * (the Linux interface NAME, a veth end; {@code raw:NAME} for any interface; both on AF_PACKET where
 * it opens, else libpcap; {@code af_packet:NAME} or {@code pcap:NAME} choose).
 *
 * @param port   the switch port's name in the configuration
 * @param kind   the attachment's kind
 * @param local  the local UDP port (UDP)
 * @param host   the remote host (UDP) or the interface (RAW)
 * @param remote the remote UDP port (UDP)
 * @param backend how a RAW port talks to its interface
 */
public record PortSpec(String port, Kind kind, int local, String host, int remote, RawBackend backend) {

    /** What a port is plugged into. */
    public enum Kind {
        /** frame-over-UDP, qemu's socket netdev format. */
        UDP,
        /** a Linux interface, its frames sent and received whole (libpcap). */
        RAW
    }

    /** Longest Linux interface name (IFNAMSIZ - 1). */
    private static final int MAX_IFACE_CHARS = 15;

    /** @return the Linux interface of a {@link Kind#RAW} port */
    public String iface() {
        return host;
    }

    /**
     * @param text {@code NAME=udp:LPORT:RPORT} or {@code NAME=udp:LPORT:HOST:RPORT}
     * @throws IllegalArgumentException naming what is wrong, in one line
     */
    public static PortSpec parse(String text) {
        int eq = text.indexOf('=');
        if (eq <= 0 || eq == text.length() - 1) {
            throw new IllegalArgumentException("--port " + text
                + ": expected NAME=udp:LPORT:RPORT or NAME=veth:IFACE, e.g. Ethernet0=udp:40010:40000");
        }
        String name = text.substring(0, eq);
        String what = text.substring(eq + 1);
        String[] parts = what.split(":", -1);
        String kind = parts[0].toLowerCase(Locale.ROOT);
        if (kind.equals("udp")) {
            if (parts.length == 3) {
                return new PortSpec(name, Kind.UDP, udpPort(text, parts[1]), "127.0.0.1", udpPort(text, parts[2]), null);
            }
            if (parts.length == 4 && !parts[2].isEmpty()) {
                return new PortSpec(name, Kind.UDP, udpPort(text, parts[1]), parts[2], udpPort(text, parts[3]), null);
            }
            throw new IllegalArgumentException("--port " + text + ": expected udp:LPORT:RPORT or udp:LPORT:HOST:RPORT");
        }
        RawBackend backend = switch (kind) {
            case "veth", "raw" -> RawBackend.AUTO;
            case "af_packet" -> RawBackend.AF_PACKET;
            case "pcap" -> RawBackend.PCAP;
            default -> null;
        };
        if (backend != null) {
            if (parts.length != 2 || parts[1].isEmpty() || parts[1].length() > MAX_IFACE_CHARS
                || !parts[1].matches("[^/\\s]+")) {
                throw new IllegalArgumentException("--port " + text + ": expected " + kind + ":IFACE, a Linux interface name");
            }
            return new PortSpec(name, Kind.RAW, 0, parts[1], 0, backend);
        }
        throw new IllegalArgumentException("--port " + text + ": unknown kind '" + parts[0]
            + "' (udp:LPORT:RPORT, veth:IFACE, raw:IFACE, af_packet:IFACE or pcap:IFACE)");
    }

    private static int udpPort(String text, String value) {
        try {
            int p = Integer.parseInt(value);
            if (p >= 1 && p <= 65_535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--port " + text + ": '" + value + "' is not a UDP port (1-65535)");
    }
}
