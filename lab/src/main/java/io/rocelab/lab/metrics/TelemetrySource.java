package io.rocelab.lab.metrics;

/**
 * Where a scrape's {@link Telemetry} comes from. Called on the HTTP server's threads: an
 * implementation copies the devices' state on their owner threads (and waits for the copy) or
 * returns what the owner already published; it never reads a device's live state itself.
 */
@FunctionalInterface
public interface TelemetrySource {
    /** @return the devices' telemetry now */
    Telemetry read();
}
