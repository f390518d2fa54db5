package io.rocelab.codec.sflow;

import java.util.List;

/**
 * A counter sample (sFlow v5 {@code counters_sample}, enterprise 0 format 2): one poll of a data
 * source's counters.
 *
 * @param sequence {@code sequence_number}: incremented with each sample this source generates
 * @param sourceId {@code source_id}: type in the top byte (0 = ifIndex), index in the low 24 bits
 * @param records  {@code counters<>}
 */
public record CounterSample(long sequence, long sourceId, List<CounterRecord> records) implements SflowSample {
    public CounterSample {
        records = List.copyOf(records);
    }

    @Override
    public int dataFormat() {
        return SflowCodec.COUNTER_SAMPLE;
    }
}
