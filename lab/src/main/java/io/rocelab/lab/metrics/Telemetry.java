package io.rocelab.lab.metrics;

import java.util.List;

/**
 * What one scrape reports: the switches' and the NICs' telemetry, each taken at one instant of its
 * owner thread.
 *
 * @param switches the switches, in a fixed order
 * @param nics     the NIC ports, in a fixed order
 * @param run      the lab run it was taken in, or null (a switch process)
 */
public record Telemetry(List<SwitchTelemetry> switches, List<NicTelemetry> nics, RunProgress run) {
    /** Nothing to report (a lab before its first run). */
    public static final Telemetry EMPTY = new Telemetry(List.of(), List.of(), null);

    /**
     * Where a lab run stands when the telemetry was taken.
     *
     * @param lab             the lab's name
     * @param variant         the run's variant, or "" for a lab without variants
     * @param seconds         the run's time since its start (virtual or wall, as the run's clock goes)
     * @param durationSeconds how long the run lasts
     */
    public record RunProgress(String lab, String variant, double seconds, double durationSeconds) {
    }
}
