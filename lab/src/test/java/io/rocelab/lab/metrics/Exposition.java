package io.rocelab.lab.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scraped {@code /metrics} page, parsed strictly: the Prometheus text format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/) or OpenMetrics 1.0 text. Every line
 * is a {@code # HELP}, a {@code # TYPE} or a sample; a sample's family was typed before it, its name
 * and label names are legal, its label values properly escaped, its value a float; no series twice;
 * a counter's samples end in {@code _total} (OpenMetrics may add {@code _created}); an OpenMetrics
 * page ends with {@code # EOF}. Anything else fails with the line.
 */
public final class Exposition {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SAMPLE = Pattern.compile(
        "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? ([-+]?(?:[0-9.]+(?:[eE][-+]?[0-9]+)?|NaN|[-+]?Inf))( -?[0-9.]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");

    /** One sample: its name, labels (sorted by name) and value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final Map<String, String> types = new LinkedHashMap<>();
    private final Map<String, Sample> samples = new LinkedHashMap<>();

    /** @param openMetrics whether the page is OpenMetrics text (else text 0.0.4) */
    public Exposition(String text, boolean openMetrics) {
        List<String> lines = text.lines().toList();
        if (openMetrics && (lines.isEmpty() || !lines.get(lines.size() - 1).equals("# EOF"))) {
            throw new AssertionError("an OpenMetrics page ends with # EOF");
        }
        if (!openMetrics && !text.isEmpty() && !text.endsWith("\n")) {
            throw new AssertionError("a text 0.0.4 page ends with a line feed");
        }
        Map<String, String> help = new HashMap<>();
        for (String line : lines) {
            if (line.equals("# EOF") && openMetrics) {
                continue;
            }
            if (line.startsWith("# HELP ") || line.startsWith("# TYPE ") || line.startsWith("# UNIT ")) {
                String[] w = line.split(" ", 4);
                if (w.length < 4 || !NAME.matcher(w[2]).matches()) {
                    throw new AssertionError("bad line: " + line);
                }
                if (w[1].equals("TYPE")) {
                    if (!w[3].matches("counter|gauge|histogram|summary|untyped|unknown|info|stateset|gaugehistogram")) {
                        throw new AssertionError("bad type: " + line);
                    }
                    if (types.put(w[2], w[3]) != null) {
                        throw new AssertionError("a family typed twice: " + line);
                    }
                } else if (w[1].equals("HELP") && help.put(w[2], w[3]) != null) {
                    throw new AssertionError("a family helped twice: " + line);
                }
                continue;
            }
            if (line.startsWith("#") || line.isBlank()) {
                throw new AssertionError("bad line: '" + line + "'");
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("not a sample: " + line);
            }
            String name = m.group(1);
            Map<String, String> labels = new TreeMap<>();
            if (m.group(3) != null && !m.group(3).isEmpty()) {
                String rest = m.group(3);
                Matcher l = LABEL.matcher(rest);
                int at = 0;
                while (at < rest.length()) {
                    if (!l.find(at) || l.start() != at) {
                        throw new AssertionError("bad labels: " + line);
                    }
                    if (labels.put(l.group(1), l.group(2)) != null) {
                        throw new AssertionError("a label twice: " + line);
                    }
                    at = l.end();
                    if (at < rest.length()) {
                        if (rest.charAt(at) != ',') {
                            throw new AssertionError("bad labels: " + line);
                        }
                        at++;
                    }
                }
            }
            String family = family(name);
            if (family == null) {
                throw new AssertionError("a sample of no typed family: " + line);
            }
            if (types.get(family).equals("counter") && !(name.endsWith("_total") || name.endsWith("_created"))) {
                throw new AssertionError("a counter's sample does not end in _total: " + line);
            }
            String key = name + labels;
            if (samples.put(key, new Sample(name, labels, Double.parseDouble(m.group(4).replace("Inf", "Infinity"))))
                != null) {
                throw new AssertionError("a series twice: " + line);
            }
        }
    }

    /** The family a sample belongs to: its name, or its name less {@code _total}/{@code _created}. */
    private String family(String name) {
        if (types.containsKey(name)) {
            return name;
        }
        for (String suffix : List.of("_total", "_created")) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return null;
    }

    /** @return the families' types by name */
    public Map<String, String> types() {
        return types;
    }

    /** @return every sample */
    public List<Sample> samples() {
        return List.copyOf(samples.values());
    }

    /**
     * @param labels name, value, name, value... : the series' labels, all of them
     * @return the series' value
     * @throws AssertionError if there is no such series
     */
    public double value(String name, String... labels) {
        Map<String, String> want = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            want.put(labels[i], labels[i + 1]);
        }
        Sample s = samples.get(name + want);
        if (s == null) {
            throw new AssertionError("no series " + name + want);
        }
        return s.value();
    }

    /** @return the sum of {@code name}'s series whose labels include {@code labels} */
    public double sum(String name, String... labels) {
        double sum = 0;
        for (Sample s : samples.values()) {
            boolean match = s.name().equals(name);
            for (int i = 0; match && i < labels.length; i += 2) {
                match = labels[i + 1].equals(s.labels().get(labels[i]));
            }
            if (match) {
                sum += s.value();
            }
        }
        return sum;
    }

    /** The answer to one scrape. */
    public record Page(int status, String contentType, String body) {
    }

    /** Fetches {@code url} with {@code accept} as Prometheus would send it. */
    public static Page scrape(String url, String accept) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (accept != null) {
            r.header("Accept", accept);
        }
        HttpResponse<String> a = client.send(r.build(), HttpResponse.BodyHandlers.ofString());
        return new Page(a.statusCode(), a.headers().firstValue("Content-Type").orElse(""), a.body());
    }

    /** Prometheus 2's Accept header for the text formats: OpenMetrics first, then text 0.0.4. */
    public static final String PROMETHEUS_ACCEPT =
        "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
            + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
}
