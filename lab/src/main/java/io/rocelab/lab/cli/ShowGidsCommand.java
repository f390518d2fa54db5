package io.rocelab.lab.cli;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.NicPort;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.net.Gid;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code rocelab show_gids}: the soft NIC's GID table as Mellanox's {@code show_gids} script prints a
 * ConnectX's, one line per entry with its type ("v1" RoCEv1, "v2" RoCEv2: {@code ibv_query_gid_type},
 * sysfs's {@code gid_attrs/types}), for the addresses and the {@code --roce-v1} the tools would be
 * given: what {@code -x N} picks before a run. The table is the NIC's own (a soft NIC built on a
 * cable to nowhere and closed), not a copy of its layout.
 */
@Command(name = "show_gids",
        description = {"The soft NIC's GID table as show_gids prints a ConnectX's: index, GID, IPv4, type (v1/v2).",
            "Takes the tools' address flags; --roce-v1 lists RoCEv1 GIDs beside RoCEv2 ones, as mlx5 does."},
        mixinStandardHelpOptions = true)
public final class ShowGidsCommand implements Callable<Integer> {
    /** The device name the tools' NIC has (perftest's -d). */
    static final String DEVICE = "rocelab0";

    @Option(names = "--roce-v1", description = "RoCEv1 GIDs beside the RoCEv2 ones (a ConnectX's table)")
    boolean roceV1;

    @Option(names = "--ip", paramLabel = "A.B.C.D", description = "the NIC's IPv4 address (default 10.77.0.1)")
    String ip = "10.77.0.1";

    @Option(names = "--ip6", paramLabel = "ADDR", description = "a global IPv6 address of the NIC (repeatable)")
    List<String> ip6 = new ArrayList<>();

    @Option(names = "--mac", paramLabel = "XX:XX:XX:XX:XX:XX",
            description = "the NIC's MAC (default 52:54:00:77:01:01), whose EUI-64 makes the link-local GID")
    String mac = "52:54:00:77:01:01";

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        VirtualTimeScheduler time = new VirtualTimeScheduler();
        InProcessLink cable = InProcessLink.builder().name("show_gids").faults(FaultProfile.NONE).build(time);
        SoftNic nic = build(time, cable);
        try {
            PrintWriter out = spec.commandLine().getOut();
            String row = "%s\t%s\t%s\t%s\t%s\t%s\t%s%n";
            out.printf(row, "DEV", "PORT", "INDEX", "GID", "\t\t\t\tIPv4  \t", "VER", "DEV");
            out.printf(row, "---", "----", "-----", "---", "\t\t\t\t------------  \t", "---", "---");
            NicPort port = nic.port(1);
            for (int i = 0; i < port.gidTableSize(); i++) {
                Gid g = port.gid(i);
                String ipv4 = g.isIpv4Mapped() ? Ipv4.toString(g.ipv4()) : "";
                out.printf(row, DEVICE, 1, i, colons(g), ipv4 + "  \t", port.gidType(i).shortName(), "eth0");
            }
            out.println("n_gids_found=" + port.gidTableSize());
            out.flush();
            return 0;
        } finally {
            nic.close();
            time.runFor(1_000_000L);
        }
    }

    private SoftNic build(VirtualTimeScheduler time, InProcessLink cable) {
        SoftNic.Builder b = SoftNic.builder().name(DEVICE).scheduler(time).port(cable.portA()).roceV1(roceV1);
        try {
            b.mac(mac);
        } catch (IllegalArgumentException e) {
            throw new UserError("--mac: not a MAC like 52:54:00:77:01:01: '" + mac + "'");
        }
        try {
            b.ipv4(ip);
        } catch (IllegalArgumentException e) {
            throw new UserError("--ip: not an IPv4 address like 10.77.0.1: '" + ip + "'");
        }
        for (String a : ip6) {
            try {
                b.ipv6(a);
            } catch (IllegalArgumentException e) {
                throw new UserError("--ip6: " + e.getMessage());
            }
        }
        return b.build();
    }

    /** The 16 bytes as eight groups of four hex digits, as show_gids prints a GID from sysfs. */
    static String colons(Gid g) {
        String hex = HexFormat.of().formatHex(g.toBytes());
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 32; i += 4) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(hex, i, i + 4);
        }
        return sb.toString();
    }
}
