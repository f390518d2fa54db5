package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.oob.Gid;
import io.rocelab.perftest.pingpong.PingpongKind;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soft NIC's GID table as rxe's, reachable from the tools: 0 the link-local IPv6 GID (from
 * the MAC), 1 the IPv4-mapped GID, 2 the global IPv6 address ({@code --ip6}; in-process the
 * role's default, fd77::1 for the server, fd77::2 for the client). {@code -x} / {@code -g} choose
 * one; perftest's {@code --ipv6} makes its automatic choice prefer an IPv6 GID, which on this
 * table is 0. The chosen GID goes into the exchange, and the RoCEv2 packets run between the two
 * GIDs: over IPv6 for 0 and 2.
 */
@Timeout(120)
class Ipv6GidTest {
    private static final String SERVER_LINK_LOCAL = "fe80::5054:ff:fe77:101";
    private static final String CLIENT_LINK_LOCAL = "fe80::5054:ff:fe77:102";

    /** The RoCEv2 frames each NIC sent: "IPv4" or "IPv6 SRC > DST". */
    private final List<String> roce = Collections.synchronizedList(new ArrayList<>());

    private NicSessions tapped(TestKind kind, List<String> clientOnly, String... args) throws Exception {
        return NicSessions.runTapped(kind, (server, port) -> new ForwardingFramePort(port) {
            @Override
            public void send(ByteBuf frame) {
                String what = roceFrame(frame);
                if (what != null) {
                    roce.add(what);
                }
                super.send(frame);
            }
        }, clientOnly, args);
    }

    /** "IPv4", "IPv6 SRC > DST" for an untagged RoCEv2 frame (UDP port 4791), else null. */
    private static String roceFrame(ByteBuf f) {
        int at = f.readerIndex();
        int type = f.getUnsignedShort(at + 12);
        int ip = at + 14;
        if (type == 0x0800) {
            int udp = ip + (f.getByte(ip) & 0x0f) * 4;
            return f.getUnsignedByte(ip + 9) == 17 && f.getUnsignedShort(udp + 2) == 4791 ? "IPv4" : null;
        }
        if (type != 0x86dd || f.getUnsignedByte(ip + 6) != 17 || f.getUnsignedShort(ip + 40 + 2) != 4791) {
            return null;
        }
        return "IPv6 " + address(f, ip + 8) + " > " + address(f, ip + 24);
    }

    private static String address(ByteBuf f, int off) {
        byte[] b = new byte[16];
        f.getBytes(off, b);
        return Gid.of(b).toIpv6Text();
    }

    private static Gid gid(String address) throws Exception {
        return Gid.of(InetAddress.getByName(address));
    }

    private Set<String> distinctRoce() {
        synchronized (roce) {
            return new TreeSet<>(roce);
        }
    }

    @Test
    void gidIndexTwoIsTheGlobalIpv6AddressAndTheWritesGoOverIpv6() throws Exception {
        NicSessions p = tapped(TestKind.WRITE_BW, List.of(), "-x", "2", "-s", "4096", "-n", "100");
        assertEquals(0, p.server.status, p.server.toString());
        assertEquals(0, p.client.status, p.client.toString());
        assertTrue(p.client.out().contains(" GID index       : 2\n"), p.client.out());
        // the records carry the GIDs of index 2: fd77::2 is 253:119:00:...:02 in perftest's decimal bytes
        assertEquals(gid("fd77::2"), p.client.engine.keys().get(0).gid());
        assertEquals(gid("fd77::1"), p.server.engine.keys().get(0).gid());
        assertTrue(p.client.out().contains(" GID: 253:119:00:00:00:00:00:00:00:00:00:00:00:00:00:01\n"),
                "the client prints the server's GID as its remote address:\n" + p.client.out());
        assertEquals(Set.of("IPv6 fd77::1 > fd77::2", "IPv6 fd77::2 > fd77::1"), distinctRoce(),
                "WRITEs from the client's GID to the server's, ACKs back, nothing over IPv4");
        NicSessions.BwLine line = NicSessions.BwLine.all(p.client.out()).get(0);
        assertEquals(100, line.iterations());
    }

    @Test
    void perftestsIpv6FlagPicksTheLinkLocalGidAsOnRxe() throws Exception {
        NicSessions p = tapped(TestKind.SEND_LAT, List.of(), "--ipv6", "-n", "50");
        assertEquals(0, p.server.status, p.server.toString());
        assertEquals(0, p.client.status, p.client.toString());
        assertTrue(p.client.out().contains(" GID index       : 0\n"), p.client.out());
        assertTrue(p.server.out().contains(" GID index       : 0\n"), p.server.out());
        assertEquals(gid(CLIENT_LINK_LOCAL), p.client.engine.keys().get(0).gid());
        assertEquals(Set.of("IPv6 " + SERVER_LINK_LOCAL + " > " + CLIENT_LINK_LOCAL,
                "IPv6 " + CLIENT_LINK_LOCAL + " > " + SERVER_LINK_LOCAL), distinctRoce());
        assertEquals(50, NicSessions.LatLine.all(p.client.out()).get(0).iterations());
    }

    @Test
    void withoutTheFlagsItIsTheIpv4MappedGidAsBefore() throws Exception {
        NicSessions p = tapped(TestKind.READ_LAT, List.of(), "-n", "20");
        assertEquals(0, p.client.status, p.client.toString());
        assertTrue(p.client.out().contains(" GID index       : 1\n"), p.client.out());
        assertEquals(Set.of("IPv4"), distinctRoce());
    }

    @Test
    void gidsOfTwoIpVersionsStopBothSidesWithPerftestsMessage() throws Exception {
        NicSessions p = tapped(TestKind.WRITE_BW, List.of("-x", "1"), "-x", "2", "-n", "20");
        String message = " Found Incompatibility issue with GID types. Please Try to use a different IP version.\n";
        assertEquals(1, p.client.status, p.client.toString());
        assertEquals(1, p.server.status, p.server.toString());
        assertEquals(message, p.client.err());
        assertEquals(message, p.server.err());
        assertTrue(distinctRoce().isEmpty(), "no QP was connected: " + distinctRoce());
    }

    @Test
    void pingpongOverTheGlobalAndTheLinkLocalIpv6Gid() {
        ToolResult global = ToolResult.ofPingpong(PingpongKind.RC, "--in-process", "-g", "2", "-n", "20", "-c");
        assertEquals(0, global.status(), global.err() + global.out());
        assertTrue(Pattern.compile("(?m)^  local address:  LID 0x0000, QPN 0x000011, PSN 0x[0-9a-f]{6}, GID fd77::2\n"
                + "  remote address: LID 0x0000, QPN 0x000011, PSN 0x[0-9a-f]{6}, GID fd77::1$")
                .matcher(global.out()).find(), global.out());
        ToolResult linkLocal = ToolResult.ofPingpong(PingpongKind.UD, "--in-process", "-g", "0", "-n", "20",
                "-s", "512");
        assertEquals(0, linkLocal.status(), linkLocal.err() + linkLocal.out());
        assertTrue(linkLocal.out().contains("GID " + CLIENT_LINK_LOCAL + "\n"), linkLocal.out());
        assertTrue(linkLocal.out().contains("remote address: LID 0x0000, QPN 0x000011, PSN 0x"), linkLocal.out());
        assertTrue(linkLocal.out().contains(", GID " + SERVER_LINK_LOCAL + "\n"), linkLocal.out());
        assertFalse(linkLocal.out().contains("invalid data"), linkLocal.out());
    }

    @Test
    void aMissingGidIsOneLineNamingTheTable() {
        ToolResult r = ToolResult.ofPingpong(PingpongKind.RC, "--udp-frame", "40000:40001", "-g", "2");
        assertEquals(1, r.status());
        assertEquals("can't read sgid of index 2: rocelab0's GID table has 2 entries (0 link-local IPv6, 1 IPv4-mapped);"
                + " --ip6 ADDR gives the NIC a global IPv6 address, GID index 2\n", r.err());
    }
}
