package io.rocelab.codec.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The 41 golden RoCEv2 frames of {@code vectors/vectors.json} (built by an independent
 * implementation, one captured from a ConnectX-4 Lx), loaded from the test classpath.
 */
public final class GoldenVectors {
    /** One frame with its expected fields. */
    public record Vector(int index, String name, byte[] frame, JsonNode json) {
        @Override
        public String toString() {
            return index + ":" + name;
        }
    }

    private GoldenVectors() {
    }

    public static List<Vector> all() {
        try (InputStream in = GoldenVectors.class.getResourceAsStream("/vectors/vectors.json")) {
            if (in == null) {
                throw new IllegalStateException("vectors/vectors.json is not on the test classpath");
            }
            JsonNode root = new ObjectMapper().readTree(in);
            List<Vector> list = new ArrayList<>();
            for (JsonNode p : root.get("packets")) {
                list.add(new Vector(p.get("index").asInt(), p.get("name").asText(),
                        HexFormat.of().parseHex(p.get("hex").asText()), p));
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
