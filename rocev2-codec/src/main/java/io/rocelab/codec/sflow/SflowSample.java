package io.rocelab.codec.sflow;

/**
 * One sample of a datagram ({@code sample_record}: its {@code data_format} is enterprise 0 and
 * format 1 for a flow sample, 2 for a counter sample); anything else is an {@link OpaqueSample}.
 */
public sealed interface SflowSample permits FlowSample, CounterSample, OpaqueSample {
    /** @return the sample's {@code data_format}: enterprise in the top 20 bits, format in the low 12 */
    int dataFormat();
}
