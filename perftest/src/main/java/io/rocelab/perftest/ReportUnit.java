package io.rocelab.perftest;

/**
 * The bandwidth unit of a report. perftest labels the default "MB/sec" although it divides by
 * 2^20 (a MiB); {@code --report_gbits} switches to 10^9 bits per second.
 */
public enum ReportUnit {
    MB_PER_SEC(0x100000L),
    GBIT_PER_SEC(125_000_000L);

    private final long bytesPerUnit;

    ReportUnit(long bytesPerUnit) {
        this.bytesPerUnit = bytesPerUnit;
    }

    /** Bytes per second that make one unit: 2^20 for MB/sec, 1.25e8 for Gb/sec. */
    public long bytesPerUnit() {
        return bytesPerUnit;
    }
}
