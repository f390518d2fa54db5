package io.rocelab.sw.stats;

/**
 * The FDB's occupancy and what it refused, at one instant of the switch's owner thread, for SONiC's
 * {@code crm show resources fdb} (used and available entries) and rocelab's refusal count.
 *
 * @param entries      entries held
 * @param capacity     entries the table holds at most ({@code SWITCH|switch fdb_table_size})
 * @param learnRefused new source MACs not learned because the table was full
 * @param agedOut      entries forgotten because their MAC was not seen for {@code fdb_aging_time}
 */
public record FdbCounters(int entries, int capacity, long learnRefused, long agedOut) {
    /** @return entries still free */
    public int available() {
        return Math.max(0, capacity - entries);
    }
}
