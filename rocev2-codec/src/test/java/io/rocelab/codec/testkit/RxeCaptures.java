package io.rocelab.codec.testkit;

import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The real Linux rxe + perftest + rdma-core captures in {@code vectors/rxe/} (test resources),
 * read with the project's own capture reader.
 */
public final class RxeCaptures {
    private RxeCaptures() {
    }

    /** The capture files, sorted by name. */
    public static List<Path> files() {
        URL url = RxeCaptures.class.getResource("/vectors/rxe");
        if (url == null) {
            throw new IllegalStateException("vectors/rxe is not on the test classpath");
        }
        try {
            if ("jar".equals(url.getProtocol())) {
                return copiedOutOfJar(url.toURI());
            }
            try (Stream<Path> s = Files.list(Path.of(url.toURI()))) {
                return s.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> cache;

    /** Modules above the codec see the captures inside its test jar: copy them out once per JVM. */
    private static synchronized List<Path> copiedOutOfJar(URI uri) throws IOException {
        if (cache != null) {
            return cache;
        }
        Path dir = Files.createTempDirectory("rxe-captures");
        List<Path> copies = new ArrayList<>();
        try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of());
             Stream<Path> s = Files.list(jar.provider().getPath(uri))) {
            for (Path p : s.filter(q -> q.toString().endsWith(".pcap")).sorted().toList()) {
                Path copy = dir.resolve(p.getFileName().toString());
                Files.copy(p, copy);
                copy.toFile().deleteOnExit();
                copies.add(copy);
            }
        }
        dir.toFile().deleteOnExit();
        cache = List.copyOf(copies);
        return cache;
    }

    /** Every record of a file; the caller releases them. */
    public static List<CaptureRecord> read(Path file) {
        List<CaptureRecord> records = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(file)) {
            CaptureRecord r;
            while ((r = reader.next()) != null) {
                records.add(r);
            }
            return records;
        } catch (IOException e) {
            records.forEach(CaptureRecord::release);
            throw new UncheckedIOException(e);
        }
    }
}
