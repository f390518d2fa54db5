package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.testkit.GoldenVectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rocelab decode}: output lines, totals and exit codes. */
class DecodeCommandTest {
    @TempDir
    Path dir;

    /** Copies a test resource (it may live inside the codec's test jar) to a file. */
    private Path resource(String name) throws IOException {
        try (var in = DecodeCommandTest.class.getResourceAsStream(name)) {
            Path file = dir.resolve(name.substring(name.lastIndexOf('/') + 1));
            Files.copy(in, file);
            return file;
        }
    }

    @Test
    void goldenVectorsDecodeWithExitZero() throws Exception {
        CliRun run = CliRun.of("decode", resource("/vectors/vectors.pcap").toString());
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(42, lines.size(), "41 frames and the totals");
        assertTrue(lines.get(0).contains("192.168.10.1:49313 > 192.168.10.2:4791 RC_SEND_ONLY QP 0x00a3c4 PSN 1000"),
                lines.get(0));
        assertTrue(lines.get(18).contains("AETH NAK(PSN_SEQUENCE_ERROR) MSN 3"), lines.get(18));
        assertTrue(lines.get(35).contains("vlan 100 pcp 3"), lines.get(35));
        assertTrue(lines.stream().limit(41).allMatch(l -> l.endsWith("ICRC OK")));
        assertEquals("41 frames: 41 RoCEv2 (41 ICRC OK, 0 ICRC bad), 0 malformed, 0 ARP, 0 PFC/PAUSE, 0 other",
                lines.get(41));
    }

    @Test
    void realRxeCaptureShowsTcpArpAndRoce() throws Exception {
        CliRun run = CliRun.of("decode", resource("/vectors/rxe/rc_pingpong_small.pcap").toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("TCP 10.77.0.11:"), "the out-of-band TCP exchange is summarized");
        assertTrue(run.out().contains("RC_SEND_ONLY"));
        assertTrue(run.out().contains("RC_ACKNOWLEDGE"));
        assertTrue(run.out().lines().reduce((a, b) -> b).orElseThrow().contains("42 RoCEv2 (42 ICRC OK"));
    }

    @Test
    void aCorruptFrameGivesExitOneAndSaysWhy() throws Exception {
        Path file = dir.resolve("bad.pcap");
        byte[] good = GoldenVectors.all().get(0).frame();
        byte[] bad = good.clone();
        bad[70] ^= 0x10;
        byte[] cut = java.util.Arrays.copyOf(good, 50);
        try (CaptureWriter w = PcapWriter.create(file)) {
            w.addInterface("eth0", LinkType.ETHERNET, 0, 0, null);
            write(w, good, 1);
            write(w, bad, 2);
            write(w, cut, 3);
        }
        CliRun run = CliRun.of("decode", file.toString());
        assertEquals(1, run.exitCode());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.get(0).endsWith("ICRC OK"));
        assertTrue(lines.get(1).contains("ICRC BAD (carried 0x"), lines.get(1));
        assertTrue(lines.get(2).contains("MALFORMED truncated_ip"), lines.get(2));
        assertTrue(lines.get(3).startsWith("3 frames: 2 RoCEv2 (1 ICRC OK, 1 ICRC bad), 1 malformed"), lines.get(3));
        CliRun quiet = CliRun.of("decode", "-q", file.toString());
        assertEquals(3, quiet.out().lines().count(), "quiet: the two problems and the totals");
    }

    @Test
    void pcapngWithInterfacesCommentsAndPfc() throws Exception {
        Path file = dir.resolve("switch.pcapng");
        ByteBuf pfc = Unpooled.buffer(60);
        Ethernet.write(pfc, 0, MacAddress.PAUSE_MULTICAST, 0x0c42a1000009L, EtherType.MAC_CONTROL);
        Pfc.write(pfc, Ethernet.LENGTH, 1 << 3, new int[] {0, 0, 0, 0xFFFF, 0, 0, 0, 0});
        pfc.writerIndex(60);
        try (CaptureWriter w = PcapngWriter.create(file)) {
            w.addInterface("sw0-p1", LinkType.ETHERNET, 0, 100_000_000_000L, null);
            w.addInterface("sw0-p2", LinkType.ETHERNET, 0, 100_000_000_000L, null);
            ByteBuf roce = Unpooled.wrappedBuffer(GoldenVectors.all().get(28).frame());
            w.write(1, 5_000, roce, "ECN CE marked");
            w.write(0, 6_000, pfc, "PFC XOFF prio 3 sent");
            roce.release();
        } finally {
            pfc.release();
        }
        CliRun run = CliRun.of("decode", file.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        List<String> lines = run.out().lines().toList();
        assertTrue(lines.get(0).contains("[sw0-p2]") && lines.get(0).contains("# ECN CE marked"), lines.get(0));
        assertTrue(lines.get(1).contains("[sw0-p1] PFC 0c:42:a1:00:00:09 prio3 pause 65535"), lines.get(1));
        assertTrue(lines.get(1).contains("0.000001000"), "relative time in ns: " + lines.get(1));
        assertTrue(lines.get(2).contains("1 PFC/PAUSE"));
    }

    @Test
    void aMissingFileIsOneLineAndExitTwo() {
        CliRun run = CliRun.of("decode", dir.resolve("nope.pcap").toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("rocelab: no such file: "), run.err());
        assertFalse(run.err().contains("Exception"));
    }

    @Test
    void aFileThatIsNotACaptureIsOneLineAndExitTwo() throws IOException {
        Path file = Files.writeString(dir.resolve("notes.txt"), "these are not packets\n");
        CliRun run = CliRun.of("decode", file.toString());
        assertEquals(2, run.exitCode());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().contains("not a pcap or pcapng file"), run.err());
    }

    /** A pcap (little-endian, microseconds, Ethernet) whose first record claims {@code capturedLength} bytes. */
    private Path pcapClaiming(String name, int snapLen, int capturedLength, long fileLength) throws IOException {
        Path file = dir.resolve(name);
        ByteBuf h = Unpooled.buffer(40);
        h.writeIntLE(0xA1B2C3D4).writeShortLE(2).writeShortLE(4).writeIntLE(0).writeIntLE(0).writeIntLE(snapLen)
                .writeIntLE(1);
        h.writeIntLE(1).writeIntLE(0).writeIntLE(capturedLength).writeIntLE(capturedLength);
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            f.write(h.array(), 0, h.writerIndex());
            f.setLength(fileLength); // the rest reads as zeros, without taking the disk space
        }
        return file;
    }

    @Test
    void aCorruptRecordIsOneLineThatNamesTheFileOnce() throws IOException {
        Path file = pcapClaiming("corrupt.pcap", 65535, 1_000_000, 40 + 100);
        CliRun run = CliRun.of("decode", file.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("rocelab: " + file + ": at offset 32 (0x20): record captured length 1000000"),
                run.err());
        assertEquals(1, run.err().split(java.util.regex.Pattern.quote(file.toString()), -1).length - 1,
                "the path once: " + run.err());
    }

    @Test
    void aSixtyFourMebibyteRecordIsOneLineAndExitTwoEvenInASixtyFourMebibyteHeap() throws Exception {
        int huge = 64 << 20;
        Path file = pcapClaiming("huge.pcap", huge, huge, 40L + huge);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), "io.rocelab.lab.cli.Rocelab", "decode", file.toString())
                .redirectOutput(dir.resolve("decode.out").toFile()).redirectError(dir.resolve("decode.err").toFile())
                .start();
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "decode ended");
        String err = Files.readString(dir.resolve("decode.err"));
        assertEquals(2, p.exitValue(), err);
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("rocelab: " + file + ": at offset 32 (0x20): record captured length 67108864 is"
                + " larger than any packet a capture holds (262144)"), err);
        assertFalse(err.contains("Exception") || err.contains("Error:") || err.contains("\tat "), err);
    }

    @Test
    void aMissingArgumentIsAUsageError() {
        CliRun run = CliRun.of("decode");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().startsWith("rocelab: Missing required parameter: 'FILE'"), run.err());
    }

    private static void write(CaptureWriter w, byte[] frame, long t) throws IOException {
        ByteBuf b = Unpooled.wrappedBuffer(frame);
        w.write(0, t * 1000, b, null);
        b.release();
    }
}
