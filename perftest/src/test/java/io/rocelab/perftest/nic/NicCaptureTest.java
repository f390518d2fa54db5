package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureInterface;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.capture.PacketDirection;
import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --capture FILE}: the frames the tool's NICs sent and received, in a pcapng bounded to the
 * first and the last {@code --capture-frames} of the run.
 */
@Timeout(120)
class NicCaptureTest {
    @TempDir
    Path dir;

    /** What a capture holds. */
    private record Frame(int interfaceId, long time, PacketDirection direction, String comment, boolean roce,
                         boolean icrcOk, int destQp, long psn) {
    }

    private static List<Frame> read(Path file, List<CaptureInterface> interfaces) throws Exception {
        List<Frame> frames = new ArrayList<>();
        ParsedFrame p = new ParsedFrame();
        Icrc icrc = new Icrc();
        try (CaptureReader r = CaptureReader.open(file)) {
            for (CaptureRecord rec; (rec = r.next()) != null; ) {
                try {
                    boolean roce = p.parse(rec.content()) == null && p.isRoce();
                    frames.add(new Frame(rec.interfaceId(), rec.timestampNanos(), rec.direction(), rec.comment(), roce,
                        roce && icrc.verify(p), roce ? p.destQp() : -1, roce ? p.psn() : -1));
                } finally {
                    rec.release();
                }
            }
            interfaces.addAll(r.interfaces());
        }
        return frames;
    }

    private static int id(List<CaptureInterface> interfaces, String name) {
        return interfaces.stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow().id();
    }

    @Test
    void aShortRunIsCapturedWholeBothNicsBothDirectionsEveryIcrcGood() throws Exception {
        Path file = dir.resolve("write.pcapng");
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "200", "--capture",
                file.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        List<CaptureInterface> interfaces = new ArrayList<>();
        List<Frame> frames = read(file, interfaces);
        // --in-process cables both NICs' port 2 as well: each link its own interface
        assertEquals(List.of("rocelab0 client", "rocelab0 client port 2", "rocelab0 server", "rocelab0 server port 2"),
            interfaces.stream().map(CaptureInterface::name).sorted().toList());
        int client = id(interfaces, "rocelab0 client");
        int server = id(interfaces, "rocelab0 server");
        assertTrue(r.err().contains(" capture " + file.toAbsolutePath() + ": " + frames.size() + " frames\n"), r.err());
        long clientSent = frames.stream().filter(f -> f.interfaceId() == client && f.roce()
            && f.direction() == PacketDirection.OUTBOUND).count();
        long serverReceived = frames.stream().filter(f -> f.interfaceId() == server && f.roce()
            && f.direction() == PacketDirection.INBOUND).count();
        assertTrue(clientSent >= 200, "the client's 200 WRITEs: " + clientSent);
        assertEquals(clientSent, serverReceived, "what one NIC sent the other received, on a lossless link");
        assertTrue(frames.stream().filter(Frame::roce).allMatch(Frame::icrcOk), "every ICRC good");
        assertTrue(frames.stream().noneMatch(f -> f.comment() != null), "nothing left out");
        for (int i = 1; i < frames.size(); i++) {
            assertTrue(frames.get(i).time() >= frames.get(i - 1).time() - 1_000_000, "in time order (1 ms)");
        }
    }

    @Test
    void aRunOnPortTwoIsCapturedOnPortTwosInterface() throws Exception {
        Path file = dir.resolve("port2.pcapng");
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-i", "2", "-s", "4096", "-n", "100",
                "--capture", file.toString());
        assertEquals(0, r.status(), r.err() + r.out());
        List<CaptureInterface> interfaces = new ArrayList<>();
        List<Frame> frames = read(file, interfaces);
        int client1 = id(interfaces, "rocelab0 client");
        int client2 = id(interfaces, "rocelab0 client port 2");
        int server2 = id(interfaces, "rocelab0 server port 2");
        long sent2 = frames.stream().filter(f -> f.interfaceId() == client2 && f.roce()
            && f.direction() == PacketDirection.OUTBOUND).count();
        long received2 = frames.stream().filter(f -> f.interfaceId() == server2 && f.roce()
            && f.direction() == PacketDirection.INBOUND).count();
        assertTrue(sent2 >= 100, "the client's 100 WRITEs leave by port 2: " + sent2);
        assertEquals(sent2, received2, "and arrive on the server's port 2");
        assertEquals(0, frames.stream().filter(f -> f.interfaceId() == client1 && f.roce()).count(),
            "nothing RoCE on port 1");
        assertTrue(frames.stream().filter(Frame::roce).allMatch(Frame::icrcOk), "every ICRC good");
    }

    @Test
    void aLongRunKeepsTheFirstAndTheLastFramesAndSaysWhatIsLeftOut() throws Exception {
        Path file = dir.resolve("long.pcapng");
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-s", "4096", "-n", "2000",
                "--capture", file.toString(),
            "--capture-frames", "100");
        assertEquals(0, r.status(), r.err() + r.out());
        List<Frame> frames = read(file, new ArrayList<>());
        assertEquals(200, frames.size());
        assertNull(frames.get(99).comment());
        String gap = frames.get(100).comment();
        assertNotNull(gap, "the first frame after the gap says so");
        long left = Long.parseLong(gap.replaceAll("rocelab: (\\d+) frames not kept before this one.*", "$1"));
        assertTrue(left > 2 * 2000 - 200, gap);
        assertTrue(r.err().contains(" capture " + file.toAbsolutePath() + ": 200 frames (the first and the last 100 of "
            + (200 + left) + ")"), r.err());
        assertTrue(frames.stream().filter(Frame::roce).allMatch(Frame::icrcOk), "kept whole");
        // the end of the run: the last WRITEs and their ACKs are among the kept frames
        long firstPsn = frames.subList(0, 100).stream().filter(Frame::roce).mapToLong(Frame::psn).min().orElse(-1);
        long lastPsn = frames.subList(100, 200).stream().filter(Frame::roce).mapToLong(Frame::psn).max().orElse(-1);
        assertTrue(lastPsn >= 0 && firstPsn >= 0, "RoCE frames at both ends");
        assertTrue(((lastPsn - firstPsn) & 0xFFFFFF) >= 1990, "the last kept frames are the run's last: " + firstPsn
            + ".." + lastPsn);
    }

    @Test
    void aFileThatCannotBeWrittenIsOneLineBeforeAnythingRuns() throws Exception {
        Path noDir = dir.resolve("missing").resolve("x.pcapng");
        ToolResult r = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-n", "10", "--capture", noDir.toString());
        assertEquals(1, r.status());
        assertEquals("--capture: cannot write " + noDir + " (no such directory)", r.err().strip());
        assertFalse(r.out().contains("#bytes"), r.out());

        ToolResult d = ToolResult.of(TestKind.WRITE_BW, "--in-process", "-n", "10", "--capture", dir.toString());
        assertEquals(1, d.status());
        assertEquals("--capture: " + dir + " is a directory", d.err().strip());

        for (String[] args : new String[][] {{"--capture-frames", "10"}, {"--capture", "x.pcapng", "--capture-frames", "0"},
            {"--capture", "x.pcapng", "--capture-frames", "many"}, {"--capture"}}) {
            List<String> all = new ArrayList<>(List.of("--in-process"));
            all.addAll(List.of(args));
            ToolResult bad = ToolResult.of(TestKind.WRITE_BW, all.toArray(new String[0]));
            assertEquals(1, bad.status(), all.toString());
            assertEquals(1, bad.err().strip().lines().count(), all + ": " + bad.err());
        }
        assertFalse(Files.exists(Path.of("x.pcapng")), "a refused command line writes no file");
    }

    @Test
    void pingpongCapturesToo() throws Exception {
        Path file = dir.resolve("pp.pcapng");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = PingpongTool.run(io.rocelab.perftest.pingpong.PingpongKind.RC, new String[] {"--in-process",
            "-n", "20", "--capture", file.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        List<Frame> frames = read(file, new ArrayList<>());
        assertTrue(frames.stream().filter(f -> f.roce() && f.direction() == PacketDirection.OUTBOUND).count() >= 2 * 20,
            "20 round trips: a SEND each way at least");
        assertTrue(frames.stream().filter(Frame::roce).allMatch(Frame::icrcOk));
    }
}
