package io.rocelab.codec.sflow;

/** A record of a counter sample ({@code counter_record}); a format this codec does not read is an {@link OpaqueRecord}. */
public sealed interface CounterRecord permits GenericInterfaceCounters, EthernetCounters, OpaqueRecord {
    /** @return the record's {@code data_format} */
    int dataFormat();
}
