package io.rocelab.lab.run;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.lab.expect.Kind;
import io.rocelab.topology.collective.CollectiveResult;
import io.rocelab.topology.workload.FlowResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * One finished run ({@link LabRun}: a variant at a seed) as a gzipped JSON file, whole: every sampled series and end value,
 * the flows' and collectives' results, the timeline as applied, the notes. {@code rocelab lab report} reads these
 * back and writes the same report a run writes, so that a lab's variants and seeds can run apart (on other machines)
 * and be set side by side afterwards. Numbers keep every bit (the shortest decimal that reads back as the same
 * double; NaN and the infinities as the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}).
 */
final class RunArchive {
    /** The archive's format: a reader refuses another. */
    static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunArchive() {
    }

    /**
     * Writes {@code run} to {@code file}.
     *
     * @param capture its capture's name beside the report (as {@link SweepManifest} copies it), or null
     */
    static void write(Path file, LabRun run, long seed, String capture) throws IOException {
        RunData d = run.data();
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("variant", d.variant());
        root.put("seed", seed);
        root.put("duration_ns", d.durationNanos());
        ArrayNode probes = root.putArray("probes");
        d.probes().forEach(probes::add);
        ObjectNode names = root.putObject("names");
        for (Kind k : Kind.values()) {
            ArrayNode a = names.putArray(k.name());
            d.names(k).forEach(a::add);
        }
        ArrayNode times = root.putArray("times");
        for (double t : d.times()) {
            times.add(t);
        }
        ArrayNode columns = root.putArray("columns");
        for (RunData.Column c : d.columns()) {
            ObjectNode o = columns.addObject();
            o.put("kind", c.kind().name());
            o.put("name", c.name());
            o.put("attribute", c.attribute());
            ArrayNode v = o.putArray("values");
            for (double x : c.values()) {
                v.add(x);
            }
        }
        ArrayNode totals = root.putArray("totals");
        for (RunData.Total t : d.totals()) {
            ObjectNode o = totals.addObject();
            o.put("kind", t.kind().name());
            o.put("name", t.name());
            o.put("attribute", t.attribute());
            o.put("value", t.value());
        }
        root.set("flows", JSON.valueToTree(run.flows()));
        root.set("background", JSON.valueToTree(run.background()));
        root.set("applied", JSON.valueToTree(run.applied()));
        root.put("events", run.events());
        root.put("wall_ns", run.wallNanos());
        root.put("capture", capture);
        root.put("captured", run.captured());
        root.set("notes", JSON.valueToTree(run.notes()));
        root.set("collectives", JSON.valueToTree(run.collectives()));
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            JSON.writeValue(out, root);
        }
    }

    /** A run read back, with the seed it ran at and its capture's name beside its report (or null). */
    record Archived(LabRun run, long seed, String capture) {
    }

    /**
     * Reads what {@link #write} wrote.
     *
     * @param captureAt where the run's capture is now, from its name
     * @throws IOException when the file cannot be read or is not an archive of this format
     */
    static Archived read(Path file, Function<String, Path> captureAt) throws IOException {
        JsonNode root = tree(file);
        if (root == null || !root.isObject() || root.path("format").asInt(-1) != FORMAT) {
            throw new IOException(file + ": not a run archive of format " + FORMAT);
        }
        try {
            Set<String> probes = new LinkedHashSet<>();
            root.path("probes").forEach(p -> probes.add(p.asText()));
            Map<Kind, List<String>> names = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) {
                List<String> n = new ArrayList<>();
                root.path("names").path(k.name()).forEach(x -> n.add(x.asText()));
                names.put(k, n);
            }
            double[] times = doubles(root.path("times"));
            List<RunData.Column> columns = new ArrayList<>();
            for (JsonNode c : root.path("columns")) {
                columns.add(new RunData.Column(Kind.valueOf(c.path("kind").asText()), c.path("name").asText(),
                    c.path("attribute").asText(), doubles(c.path("values"))));
            }
            List<RunData.Total> totals = new ArrayList<>();
            for (JsonNode t : root.path("totals")) {
                totals.add(new RunData.Total(Kind.valueOf(t.path("kind").asText()), t.path("name").asText(),
                    t.path("attribute").asText(), number(t.path("value"))));
            }
            RunData data = RunData.restore(root.path("variant").asText(), root.path("duration_ns").asLong(), probes,
                names, times, columns, totals);
            List<FlowResult> flows = JSON.convertValue(root.path("flows"), new TypeReference<List<FlowResult>>() { });
            List<FlowResult> background = JSON.convertValue(root.path("background"),
                new TypeReference<List<FlowResult>>() { });
            List<String> applied = JSON.convertValue(root.path("applied"), new TypeReference<List<String>>() { });
            List<String> notes = JSON.convertValue(root.path("notes"), new TypeReference<List<String>>() { });
            List<CollectiveResult> collectives = JSON.convertValue(root.path("collectives"),
                new TypeReference<List<CollectiveResult>>() { });
            String capture = root.path("capture").isTextual() ? root.path("capture").asText() : null;
            LabRun run = new LabRun(data, flows, background, applied, root.path("events").asLong(),
                root.path("wall_ns").asLong(), capture == null ? null : captureAt.apply(capture),
                root.path("captured").asLong(), notes, collectives);
            return new Archived(run, root.path("seed").asLong(), capture);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    /** @return the archive's JSON, as written */
    static JsonNode tree(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return JSON.readTree(in);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IOException(file + ": missing (its lab-run.json names it)");
        } catch (IOException e) {
            throw new IOException(file + ": not a run archive (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /**
     * @return whether two archives hold the same run, but for the wall time each took and where its capture lies
     *         (beside a report of one seed, or in its seed's directory)
     */
    static boolean sameRun(Path a, Path b) throws IOException {
        JsonNode x = tree(a);
        JsonNode y = tree(b);
        if (x instanceof ObjectNode ox && y instanceof ObjectNode oy) {
            ox.remove(List.of("wall_ns", "capture"));
            oy.remove(List.of("wall_ns", "capture"));
        }
        return x != null && x.equals(y);
    }

    private static double[] doubles(JsonNode a) {
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = number(a.get(i));
        }
        return out;
    }

    /** A double as written: a number, or NaN and the infinities as their names. */
    private static double number(JsonNode n) {
        return n.isTextual() ? Double.parseDouble(n.asText()) : n.asDouble();
    }
}
