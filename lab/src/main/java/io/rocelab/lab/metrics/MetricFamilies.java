package io.rocelab.lab.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metric families being filled for one scrape: a family is made the first time a sample names it,
 * with its help text and unit, and every later sample of the same name adds a data point to it (one
 * name, many label sets: never a name per port). Not thread-safe: one per scrape.
 */
final class MetricFamilies {
    private record Family(boolean counter, String help, Unit unit, List<Object> points) {
    }

    private final Map<String, Family> families = new LinkedHashMap<>();

    /**
     * A counter's value. {@code name} is the family's name without {@code _total}: the exposition
     * formats add it (text 0.0.4 and OpenMetrics alike).
     */
    void counter(String name, String help, Unit unit, double value, String... labels) {
        family(name, true, help, unit).points.add(CounterSnapshot.CounterDataPointSnapshot.builder()
            .labels(Labels.of(labels)).value(value).build());
    }

    /** A gauge's value. */
    void gauge(String name, String help, Unit unit, double value, String... labels) {
        family(name, false, help, unit).points.add(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(Labels.of(labels)).value(value).build());
    }

    private Family family(String name, boolean counter, String help, Unit unit) {
        Family f = families.computeIfAbsent(name, n -> new Family(counter, help, unit, new ArrayList<>()));
        if (f.counter != counter) {
            throw new IllegalStateException(name + " is both a counter and a gauge");
        }
        return f;
    }

    /** @return the families, in the order they were first named */
    MetricSnapshots build() {
        List<MetricSnapshot> all = new ArrayList<>();
        for (var e : families.entrySet()) {
            Family f = e.getValue();
            if (f.counter) {
                CounterSnapshot.Builder b = CounterSnapshot.builder().name(e.getKey()).help(f.help);
                if (f.unit != null) {
                    b.unit(f.unit);
                }
                f.points.forEach(p -> b.dataPoint((CounterSnapshot.CounterDataPointSnapshot) p));
                all.add(b.build());
            } else {
                GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(e.getKey()).help(f.help);
                if (f.unit != null) {
                    b.unit(f.unit);
                }
                f.points.forEach(p -> b.dataPoint((GaugeSnapshot.GaugeDataPointSnapshot) p));
                all.add(b.build());
            }
        }
        return new MetricSnapshots(all);
    }
}
