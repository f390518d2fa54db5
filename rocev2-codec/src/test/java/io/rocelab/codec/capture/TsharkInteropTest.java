package io.rocelab.codec.capture;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.TestCaptures.Packet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.rocelab.codec.capture.TestCaptures.readAll;
import static io.rocelab.codec.capture.TestCaptures.resource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Wireshark's own tools against our files, both ways: tshark and capinfos read what the writers
 * produce, and the reader reads what editcap produces. Skipped, loudly, where the tools are not
 * installed (Debian/Ubuntu: {@code apt-get install tshark}).
 */
class TsharkInteropTest {

    private static final long PROCESS_TIMEOUT_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void tsharkReadsOurPcapngInterfacesCommentsTimesAndDirections() throws Exception {
        String tshark = tool("tshark");
        Path file = dir.resolve("lab.pcapng");
        List<Packet> written = PcapngWriterTest.writeLab(file, 30);

        List<String> lines = run(tshark, "-r", file.toString(), "-T", "fields",
                "-e", "frame.interface_id", "-e", "frame.interface_name", "-e", commentField(tshark),
                "-e", "frame.time_epoch", "-e", "frame.len", "-e", "frame.cap_len",
                "-e", "frame.packet_flags_direction");
        assertEquals(written.size(), lines.size(), "tshark frame count");
        String[] names = {"leaf1:eth1", "leaf1:eth2", "spine1:ip0"};
        for (int i = 0; i < lines.size(); i++) {
            Packet p = written.get(i);
            String[] f = lines.get(i).split("\t", -1);
            String context = "frame " + (i + 1) + ": " + lines.get(i);
            assertEquals(7, f.length, context);
            assertEquals(String.valueOf(p.interfaceId()), f[0], context);
            assertEquals(names[p.interfaceId()], f[1], context);
            assertEquals(p.comment() == null ? "" : p.comment(), f[2], context);
            assertEquals(String.format("%d.%09d", p.timestampNanos() / 1_000_000_000L, p.timestampNanos() % 1_000_000_000L),
                    f[3], context);
            assertEquals(String.valueOf(p.data().length), f[4], context);
            assertEquals(String.valueOf(p.data().length), f[5], context);
            String direction = switch (p.direction()) {
                case UNKNOWN -> "";
                case INBOUND -> "0x1";
                case OUTBOUND -> "0x2";
            };
            assertTrue(direction.isEmpty() ? f[6].isEmpty() : Long.decode(f[6]) == Long.decode(direction), context);
        }
        System.out.println("tshark read " + lines.size() + " frames of our pcapng; first: " + lines.get(1));
    }

    @Test
    void capinfosAndTsharkReadOurNanosecondPcap() throws Exception {
        String capinfos = tool("capinfos");
        String tshark = tool("tshark");
        Path file = dir.resolve("port.pcap");
        long[] times = {1_700_000_000_000_000_001L, 1_700_000_000_500_000_000L, 1_796_205_202_370_521_999L};
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.addInterface("eth0", LinkType.ETHERNET, 0, 0, null);
            for (int i = 0; i < times.length; i++) {
                ByteBuf frame = Unpooled.wrappedBuffer(new byte[60 + i]);
                writer.write(0, times[i], frame, null);
                frame.release();
            }
        }
        List<String> info = run(capinfos, "-T", "-c", "-t", "-M", file.toString());
        String[] row = info.get(info.size() - 1).split("\t");
        // capinfos -T gives the short name ("nsecpcap"), without -T the long one ("nanosecond pcap")
        assertTrue(row[1].equals("nsecpcap") || row[1].contains("nanosecond"), info.toString());
        assertEquals("3", row[2], info.toString());

        List<String> lines = run(tshark, "-r", file.toString(), "-T", "fields", "-e", "frame.time_epoch",
                "-e", "frame.len");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < times.length; i++) {
            expected.add(String.format("%d.%09d\t%d", times[i] / 1_000_000_000L, times[i] % 1_000_000_000L, 60 + i));
        }
        assertEquals(expected, lines);
        System.out.println("capinfos on our pcap: " + String.join(" | ", info));
    }

    @Test
    void weReadThePcapngAndNanosecondPcapThatEditcapWrites() throws Exception {
        String editcap = tool("editcap");
        Path source = resource("/vectors/vectors.pcap");
        List<Packet> original = readAll(source);

        Path pcapng = dir.resolve("vectors.pcapng");
        run(editcap, "-F", "pcapng", "-a", "1:first frame", "-a", "41:CNP von ConnectX-4 Lx — échantillon", source.toString(),
                pcapng.toString());
        List<Packet> fromPcapng = readAll(pcapng);
        assertEquals(41, fromPcapng.size());
        for (int i = 0; i < 41; i++) {
            Packet o = original.get(i);
            Packet n = fromPcapng.get(i);
            assertArrayEquals(o.data(), n.data(), "frame " + (i + 1));
            assertEquals(o.timestampNanos(), n.timestampNanos(), "frame " + (i + 1));
            assertEquals(0, n.interfaceId());
            if (i != 0 && i != 40) {
                assertNull(n.comment(), "frame " + (i + 1));
            }
        }
        assertEquals("first frame", fromPcapng.get(0).comment());
        assertEquals("CNP von ConnectX-4 Lx — échantillon", fromPcapng.get(40).comment());

        Path nsec = dir.resolve("vectors-nsec.pcap");
        run(editcap, "-F", "nsecpcap", source.toString(), nsec.toString());
        try (CaptureReader reader = CaptureReader.open(nsec)) {
            assertTrue(((PcapReader) reader).nanosecondTimestamps(), "editcap -F nsecpcap uses the nanosecond magic");
        }
        assertEquals(original, readAll(nsec));
    }

    // ---- tools ------------------------------------------------------------------------------

    /** The path of a Wireshark tool, or a loud skip of the calling test if it is not installed. */
    static String tool(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(File.pathSeparator)) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        String reason = name + " not installed: Wireshark interoperability NOT checked"
                + " (install it with: apt-get install tshark)";
        System.out.println("SKIPPED " + TsharkInteropTest.class.getSimpleName() + ": " + reason);
        System.err.println("SKIPPED " + TsharkInteropTest.class.getSimpleName() + ": " + reason);
        Assumptions.assumeTrue(false, reason);
        throw new AssertionError("unreachable");
    }

    /** tshark 4.x calls the packet comment field frame.comment; some versions call it pkt_comment. */
    private static String commentField(String tshark) throws Exception {
        List<String> fields = run(tshark, "-G", "fields");
        return fields.stream().anyMatch(l -> l.contains("\tframe.comment\t")) ? "frame.comment" : "pkt_comment";
    }

    /** Runs a command and returns its standard output lines; fails on a non-zero exit or a timeout. */
    static List<String> run(String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("LC_ALL", "C.UTF-8");
        Path stderr = Files.createTempFile("rocelab-tool", ".err");
        builder.redirectError(stderr.toFile());
        Process process = builder.start();
        try {
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                fail(String.join(" ", command) + " did not finish in " + PROCESS_TIMEOUT_SECONDS + " s");
            }
            String errors = Files.readString(stderr, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                fail(String.join(" ", command) + " exited with " + process.exitValue() + ": " + errors);
            }
            String text = new String(out, StandardCharsets.UTF_8);
            return text.isEmpty() ? List.of() : List.of(text.split("\n"));
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(stderr);
        }
    }
}
