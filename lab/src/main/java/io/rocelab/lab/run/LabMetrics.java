package io.rocelab.lab.run;

import io.rocelab.lab.expect.ExpressionException;
import io.rocelab.lab.expect.Kind;
import io.rocelab.lab.expect.Metrics;
import io.rocelab.lab.expect.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The metrics of a lab's runs (one per variant) as its checks see them. */
public final class LabMetrics implements Metrics {
    private final Map<String, RunData> runs = new LinkedHashMap<>();

    public LabMetrics(List<RunData> runs) {
        for (RunData r : runs) {
            this.runs.put(r.variant(), r);
        }
    }

    private RunData run(String variant) {
        RunData r = runs.get(variant);
        if (r == null) {
            throw new ExpressionException("no variant '" + variant + "'");
        }
        return r;
    }

    @Override
    public List<String> variants() {
        return new ArrayList<>(runs.keySet());
    }

    @Override
    public List<String> names(String variant, Kind kind) {
        return run(variant).names(kind);
    }

    @Override
    public Value attribute(String variant, Kind kind, String name, String attribute) {
        return run(variant).value(kind, name, attribute);
    }

    @Override
    public double durationSeconds(String variant) {
        return run(variant).durationNanos() / 1e9;
    }
}
