package io.rocelab.perftest.report;

import io.rocelab.perftest.ReportUnit;

/**
 * The fixed text of perftest's output, as perftest 4.5-0.18 (protocol version 6.06, the version
 * the perftest of rocelab's rxe reference VM announces) prints it. Scripts parse these lines, so they are
 * kept in one place and copied exactly, odd spacing and tabs included. Newer perftest releases
 * label the default unit "MiB/sec" and widen one gap of the bandwidth line; those changes would be
 * made here.
 */
public final class PerftestFormats {
    private PerftestFormats() {
    }

    /** The rule printed above and below every block: 87 dashes. */
    public static final String RESULT_LINE = "-".repeat(87);

    /** Bandwidth table header in MB/sec ({@code RESULT_FMT}). */
    public static final String BW_HEADER_MB =
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";

    /** Bandwidth table header with {@code --report_gbits} ({@code RESULT_FMT_G}). */
    public static final String BW_HEADER_GBITS =
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";

    /** Latency table header for iteration runs ({@code RESULT_FMT_LAT}); note the trailing space. */
    public static final String LAT_HEADER =
            " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]"
            + "   99% percentile[usec]   99.9% percentile[usec] ";

    /** Latency table header for {@code -D} runs ({@code RESULT_FMT_LAT_DUR}). */
    public static final String LAT_DURATION_HEADER = " #bytes        #iterations       t_avg[usec]    tps average";

    /** The banner a server prints before it blocks in accept(). */
    public static final String WAITING_FOR_CLIENT = "\n"
            + "************************************\n"
            + "* Waiting for client to connect... *\n"
            + "************************************\n";

    /** The bandwidth table header for a unit. */
    public static String bwHeader(ReportUnit unit) {
        return unit == ReportUnit.MB_PER_SEC ? BW_HEADER_MB : BW_HEADER_GBITS;
    }

    /**
     * The latency header with {@code -C} (report in cycles): perftest keeps the "[usec]" labels
     * even then, so this is the same text; the method exists so callers say what they mean.
     */
    public static String latHeader(boolean duration) {
        return duration ? LAT_DURATION_HEADER : LAT_HEADER;
    }
}
