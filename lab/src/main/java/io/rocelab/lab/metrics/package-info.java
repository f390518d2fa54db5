/**
 * Streaming telemetry: a Prometheus {@code /metrics} endpoint ({@code rocelab switch --metrics},
 * {@code rocelab lab run --metrics}) that monitoring tools scrape. On each scrape
 * {@link io.rocelab.lab.metrics.FabricCollector} reads a {@link io.rocelab.lab.metrics.Telemetry}
 * (every switch's counters, queue depths and watermarks, copied on the switch's owner thread as
 * {@code show} over the control socket copies them, and every NIC's counters) from a
 * {@link io.rocelab.lab.metrics.TelemetrySource} and turns it into metric families named after
 * Prometheus' conventions; {@link io.rocelab.lab.metrics.MetricsEndpoint} serves them over HTTP with
 * the Prometheus Java client's server (text format 0.0.4 and OpenMetrics, as the scraper asks).
 * Nothing is updated per packet: the data path keeps its counters, the endpoint copies them when asked.
 */
package io.rocelab.lab.metrics;
