package io.rocelab.lab.expect;

import java.util.List;

/** What an expression evaluates to. */
public sealed interface Value {
    /** A number. */
    record Num(double value) implements Value {
    }

    /** A truth value (a comparison, and/or/not). */
    record Bool(boolean value) implements Value {
    }

    /** A string argument. */
    record Text(String value) implements Value {
    }

    /** A gauge sampled over time: needs an aggregate (mean, max, ...) to become a number. */
    record Gauge(String name, Series series) implements Value {
    }

    /**
     * A counter: its value at the end of the run wherever a number is wanted; {@code delta} takes its
     * increase over a window from its samples ({@code series}, null when it was not sampled).
     */
    record Counter(String name, double total, Series series) implements Value {
    }

    /** Values of several flows, ports, ... (what an attribute of a collection gives). */
    record Many(String name, List<Value> items) implements Value {
    }

    /** One flow, port, queue, NIC or switch of a variant; {@code name} null for the fabric-wide sum of its kind. */
    record Entity(String variant, Kind kind, String name) implements Value {
    }

    /** Several of them. */
    record Entities(String variant, Kind kind, List<String> names, String label) implements Value {
    }

    /** A variant: {@code lossy.} in {@code lossy.switch.drops}. */
    record Scope(String variant) implements Value {
    }
}
