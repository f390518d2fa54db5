package io.rocelab.perftest.oob;

/**
 * One line of a bandwidth table — and exactly what perftest's peers send each other at the end of
 * a run ({@code struct bw_report_data}), so the server can print the client's numbers.
 *
 * @param size        message size in bytes
 * @param iterations  messages counted
 * @param peak        best bandwidth over any window, in the report unit (0 when not computed)
 * @param average     bandwidth over the whole run, in the report unit
 * @param messageRate millions of messages per second
 */
public record BwResult(long size, long iterations, double peak, double average, double messageRate) {

    /** The sum of two directions, as perftest prints a bidirectional run. */
    public BwResult plus(BwResult other) {
        return new BwResult(size, iterations, peak + other.peak, average + other.average,
                messageRate + other.messageRate);
    }
}
