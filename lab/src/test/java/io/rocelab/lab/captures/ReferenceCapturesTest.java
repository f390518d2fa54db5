package io.rocelab.lab.captures;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.cli.CommandLines;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed {@code captures/} are exactly what the generator writes (so they are regenerable
 * by the documented command), and each decodes with {@code rocelab decode} exit 0.
 */
class ReferenceCapturesTest {
    @TempDir
    Path dir;

    static Path committed() {
        return Path.of(System.getProperty("rocelab.root", "..")).resolve("captures");
    }

    @Test
    void committedCapturesAreRegeneratedByteForByte() throws IOException {
        List<Path> fresh = new ReferenceCaptures(dir).writeAll();
        assertEquals(8, fresh.size());
        for (Path p : fresh) {
            Path c = committed().resolve(p.getFileName());
            assertTrue(Files.exists(c), c + " is committed (run ./rocelab reference-captures captures)");
            assertArrayEquals(Files.readAllBytes(c), Files.readAllBytes(p),
                    c + " differs from a fresh run: regenerate with ./rocelab reference-captures captures");
        }
        try (Stream<Path> s = Files.list(committed())) {
            long files = s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).count();
            assertEquals(fresh.size(), files, "every committed capture comes from the generator");
        }
    }

    @Test
    void everyCommittedCaptureDecodesClean() throws IOException {
        try (Stream<Path> s = Files.list(committed())) {
            for (Path p : s.filter(f -> f.toString().matches(".*\\.pcap(ng)?$")).toList()) {
                StringWriter out = new StringWriter();
                var cl = CommandLines.create();
                cl.setOut(new PrintWriter(out, true));
                int code = cl.execute("decode", p.toString());
                assertEquals(0, code, p + ":\n" + out);
                assertTrue(out.toString().contains("0 ICRC bad), 0 malformed"), out.toString());
            }
        }
    }
}
