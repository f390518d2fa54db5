package io.rocelab.lab.labfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a lab file's companions (a switch's {@code config_db.json}, a size CDF) are read from: the
 * lab file's directory, or, for a shipped scenario, the jar's {@code labs/} resources.
 */
public interface LabSources {
    /**
     * @param relative the path as the lab file wrote it
     * @return the file's text
     * @throws IOException if there is no such file
     */
    String read(String relative) throws IOException;

    /** @return companions beside {@code labFile} (an absolute path in a file is taken as it is) */
    static LabSources directory(Path dir) {
        return relative -> Files.readString(dir.resolve(relative), StandardCharsets.UTF_8);
    }

    /** @return companions of a shipped scenario, resources under {@code prefix} ({@code labs/}) */
    static LabSources resources(String prefix) {
        return relative -> {
            try (InputStream in = LabSources.class.getClassLoader().getResourceAsStream(prefix + relative)) {
                if (in == null) {
                    throw new IOException("no such file: " + relative);
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        };
    }
}
