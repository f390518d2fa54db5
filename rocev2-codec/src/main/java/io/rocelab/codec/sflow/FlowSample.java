package io.rocelab.codec.sflow;

import java.util.List;

/**
 * A flow sample (sFlow v5 {@code flow_sample}, enterprise 0 format 1): one packet a sampler took,
 * with where it came from and went. Unsigned 32-bit fields are held in longs.
 *
 * @param sequence     {@code sequence_number}: incremented with each sample this source generates
 * @param sourceId     {@code source_id}: type in the top byte (0 = ifIndex), index in the low 24 bits
 * @param samplingRate {@code sampling_rate}: one packet in this many is sampled
 * @param samplePool   {@code sample_pool}: packets that could have been sampled (skipped plus sampled)
 * @param drops        {@code drops}: samples lost for lack of resources
 * @param input        {@code input}: ifIndex the packet came in by, 0 if unknown
 * @param output       {@code output}: ifIndex it left by; 0 unknown; {@code 0x40000000 | reason}
 *                     dropped; {@code 0x80000000 | n} sent to n interfaces
 * @param records      {@code flow_records<>}
 */
public record FlowSample(long sequence, long sourceId, long samplingRate, long samplePool, long drops, long input,
                         long output, List<FlowRecord> records) implements SflowSample {
    public FlowSample {
        records = List.copyOf(records);
    }

    @Override
    public int dataFormat() {
        return SflowCodec.FLOW_SAMPLE;
    }
}
