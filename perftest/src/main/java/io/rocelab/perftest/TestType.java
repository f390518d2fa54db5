package io.rocelab.perftest;

/** Whether a tool measures bandwidth or latency; it decides defaults, legal flags and the output. */
public enum TestType {
    LAT,
    BW
}
