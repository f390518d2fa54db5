package io.rocelab.lab.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code lab-run.json}, beside every run's report: what ran (the lab file, its SHA-256, the mode, a {@code --duration}
 * given, the seeds the sweep has and the variants the lab has) and, per run of a variant at a seed, where its
 * {@link RunArchive} and its capture are. {@code rocelab lab report} merges directories by it and refuses runs of
 * different lab files.
 *
 * @param rocelab    the version that ran ({@code rocelab --version})
 * @param lab        the lab's name
 * @param file       the lab file as given on the command line (a path, or a shipped lab's name)
 * @param sha256     the SHA-256 of the lab file's text, lower-case hex
 * @param mode       virtual, live or netns
 * @param durationNanos the {@code --duration} given, or 0 for the file's
 * @param seeds      the seeds of the whole sweep ({@code seeds:}, {@code --seeds}, else the one seed)
 * @param variants   the lab's variants (one empty name without variants)
 * @param pieces     what this directory holds, in the order it ran
 */
public record SweepManifest(String rocelab, String lab, String file, String sha256, String mode, long durationNanos,
                            List<Long> seeds, List<String> variants, List<Piece> pieces) {
    /** The manifest's name in a run's directory. */
    public static final String FILE = "lab-run.json";
    /** The folder of the run archives beside it. */
    public static final String ARCHIVES = "lab-run";
    /** The manifest's format: a reader refuses another. */
    static final int FORMAT = 1;

    public SweepManifest {
        seeds = List.copyOf(seeds);
        variants = List.copyOf(variants);
        pieces = List.copyOf(pieces);
    }

    /**
     * One run of a variant at a seed.
     *
     * @param archive its {@link RunArchive}, relative to the manifest's directory
     * @param capture its capture ({@code capture:}), relative to the manifest's directory, or null
     * @param sflow   its sFlow pcap, relative to the manifest's directory, or null
     */
    public record Piece(String variant, long seed, String archive, String capture, String sflow) {
        /** @return "variant a at seed 2", "seed 2" without variants */
        public String describe() {
            return describe(variant, seed);
        }

        static String describe(String variant, long seed) {
            return (variant.isEmpty() ? "" : "variant " + variant + " at ") + "seed " + seed;
        }
    }

    /** @return the archive's name for a variant at a seed, under {@link #ARCHIVES} */
    static String archiveName(String variant, long seed) {
        return ARCHIVES + "/" + (variant.isEmpty() ? "" : variant + ".") + "seed-" + seed + ".json.gz";
    }

    /** @return the SHA-256 of {@code text} (UTF-8), lower-case hex */
    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes {@code dir/lab-run.json}. */
    void write(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("format", FORMAT);
        root.put("rocelab", rocelab);
        root.put("lab", lab);
        root.put("file", file);
        root.put("sha256", sha256);
        root.put("mode", mode);
        if (durationNanos > 0) {
            root.put("duration_ns", durationNanos);
        } else {
            root.putNull("duration_ns");
        }
        ArrayNode s = root.putArray("seeds");
        seeds.forEach(s::add);
        ArrayNode v = root.putArray("variants");
        variants.forEach(v::add);
        ArrayNode p = root.putArray("runs");
        for (Piece piece : pieces) {
            ObjectNode o = p.addObject();
            o.put("variant", piece.variant());
            o.put("seed", piece.seed());
            o.put("archive", piece.archive());
            o.put("capture", piece.capture());
            o.put("sflow", piece.sflow());
        }
        Files.createDirectories(dir);
        json.writeValue(dir.resolve(FILE).toFile(), root);
    }

    /**
     * Reads {@code dir/lab-run.json}.
     *
     * @throws IOException with one line saying what is wrong (absent, not JSON, another format)
     */
    public static SweepManifest read(Path dir) throws IOException {
        Path f = dir.resolve(FILE);
        if (!Files.isRegularFile(f)) {
            throw new IOException(dir + ": no " + FILE + " (not the --out of a 'rocelab lab run')");
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(f.toFile());
        } catch (IOException e) {
            throw new IOException(f + ": not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || root.path("format").asInt(-1) != FORMAT) {
            throw new IOException(f + ": not a " + FILE + " of format " + FORMAT);
        }
        List<Long> seeds = new ArrayList<>();
        root.path("seeds").forEach(x -> seeds.add(x.asLong()));
        List<String> variants = new ArrayList<>();
        root.path("variants").forEach(x -> variants.add(x.asText()));
        List<Piece> pieces = new ArrayList<>();
        for (JsonNode o : root.path("runs")) {
            pieces.add(new Piece(o.path("variant").asText(), o.path("seed").asLong(), o.path("archive").asText(),
                text(o.path("capture")), text(o.path("sflow"))));
        }
        return new SweepManifest(root.path("rocelab").asText(), root.path("lab").asText(), root.path("file").asText(),
            root.path("sha256").asText(), root.path("mode").asText(), root.path("duration_ns").asLong(0), seeds,
            variants, pieces);
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }
}
