package io.rocelab.lab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The embedded demo leaf's config_db ({@code /demo/leaf.json}, what {@code rocelab switch} runs with no
 * {@code --config}), as the switch-process tests start from it: copied to a file as it is, or read as
 * tables a test adds its own to.
 */
final class DemoLeaf {
    private DemoLeaf() {
    }

    /** @return the demo leaf's tables, a fresh copy to change */
    static ObjectNode tables() {
        try (InputStream in = DemoLeaf.class.getResourceAsStream("/demo/leaf.json")) {
            return (ObjectNode) new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the demo leaf's config_db to {@code file}, byte for byte. @return {@code file} */
    static Path copyTo(Path file) throws IOException {
        try (InputStream in = DemoLeaf.class.getResourceAsStream("/demo/leaf.json")) {
            Files.write(file, in.readAllBytes());
        }
        return file;
    }
}
