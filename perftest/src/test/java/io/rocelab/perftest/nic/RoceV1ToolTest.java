package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.pingpong.PingpongKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * RoCEv1 from the tools, as on a ConnectX: {@code --roce-v1} gives the soft NIC mlx5's GID table
 * (each address v1 then v2), perftest's {@code -x} picks a GID and with it the encapsulation, and
 * without {@code -x} perftest's own choice takes the IPv4-mapped RoCEv2 GID (index 3). What goes on
 * the wire is read back from {@code --capture}: EtherType 0x8915 frames with a good Annex A16 ICRC
 * for a v1 GID, RoCEv2 for a v2 one, never both in one run.
 */
@Timeout(120)
class RoceV1ToolTest {
    @TempDir
    Path dir;

    /** RoCE frames of each kind in a capture, and whether every ICRC was good. */
    private static Map<FrameKind, Integer> roceKinds(Path file) throws Exception {
        Map<FrameKind, Integer> kinds = new EnumMap<>(FrameKind.class);
        ParsedFrame p = new ParsedFrame();
        Icrc icrc = new Icrc();
        try (CaptureReader r = CaptureReader.open(file)) {
            for (CaptureRecord rec; (rec = r.next()) != null; ) {
                try {
                    if (p.parse(rec.content()) == null && (p.isRoce() || p.isRoceV1())) {
                        assertTrue(icrc.verify(p), "ICRC of a " + p.kind() + " frame");
                        kinds.merge(p.kind(), 1, Integer::sum);
                    }
                } finally {
                    rec.release();
                }
            }
        }
        return kinds;
    }

    @Test
    void writeBwOnARoceV1GidRunsRoceV1() throws Exception {
        Path file = dir.resolve("v1.pcapng");
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--roce-v1", "-x", "2", "-s", "4096",
                "-n", "200",
                "--capture", file.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains(" GID index       : 2\n"), r.out());
        // the exchanged GID is the IPv4-mapped one, as perftest prints it
        assertTrue(r.out().contains("GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:02"), r.out());
        Map<FrameKind, Integer> kinds = roceKinds(file);
        assertTrue(kinds.getOrDefault(FrameKind.ROCEV1, 0) >= 2 * 200, kinds.toString());
        assertEquals(null, kinds.get(FrameKind.ROCEV2), "no RoCEv2 frame: " + kinds);
    }

    @Test
    void withoutXPerftestPicksTheIpv4RoceV2GidAndSendsRoceV2() throws Exception {
        Path file = dir.resolve("v2.pcapng");
        ToolResult r = ToolResult.of(TestKind.SEND_LAT, "--in-process", "--roce-v1", "-s", "64", "-n", "50",
                "--capture",
                file.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(r.out().contains(" GID index       : 3\n"), r.out());
        Map<FrameKind, Integer> kinds = roceKinds(file);
        assertTrue(kinds.getOrDefault(FrameKind.ROCEV2, 0) >= 2 * 50, kinds.toString());
        assertEquals(null, kinds.get(FrameKind.ROCEV1), kinds.toString());
    }

    @Test
    void readLatOverTheLinkLocalRoceV1Gid() throws Exception {
        Path file = dir.resolve("ll.pcapng");
        ToolResult r = ToolResult.of(TestKind.READ_LAT, "--in-process", "--roce-v1", "-x", "0", "-s", "2", "-n", "20",
                "--capture", file.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        assertTrue(roceKinds(file).getOrDefault(FrameKind.ROCEV1, 0) >= 2 * 20);
    }

    @Test
    void pingpongTakesAV1GidToo() throws Exception {
        Path file = dir.resolve("pp.pcapng");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = PingpongTool.run(PingpongKind.RC, new String[] {"--in-process", "--roce-v1", "-g", "2", "-n",
            "10", "--capture", file.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertTrue(roceKinds(file).getOrDefault(FrameKind.ROCEV1, 0) >= 2 * 10);
    }

    @Test
    void mistakesAreOneLine() {
        ToolResult bad = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--roce-v1", "-x", "6", "-n", "5");
        assertEquals(1, bad.status());
        assertTrue(bad.err().contains("GID index 6 does not exist: rocelab0's GID table has 6 entries (0 link-local"
                + " IPv6 v1, 1 link-local IPv6 v2, 2 IPv4-mapped v1, 3 IPv4-mapped v2, 4 fd77::"), bad.err());
        assertEquals(1, bad.err().strip().lines().count(), bad.err());
        ToolResult endpoint = ToolResult.of(TestKind.WRITE_BW, "--udp-endpoint", "127.0.0.1", "--roce-v1", "-n", "5");
        assertEquals(1, endpoint.status());
        assertTrue(endpoint.err().contains("--roce-v1: RoCEv1 is not IP"), endpoint.err());
        ToolResult cm = ToolResult.of(TestKind.WRITE_BW, "--in-process", "--roce-v1", "-R", "-x", "2", "-n", "5");
        assertEquals(1, cm.status());
        assertTrue(cm.err().contains("use GID index 3 (the IPv4-mapped RoCEv2 GID)"), cm.err());
    }
}
