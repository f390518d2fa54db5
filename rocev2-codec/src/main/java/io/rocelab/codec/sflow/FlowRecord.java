package io.rocelab.codec.sflow;

/** A record of a flow sample ({@code flow_record}); a format this codec does not read is an {@link OpaqueRecord}. */
public sealed interface FlowRecord permits RawPacketHeader, OpaqueRecord {
    /** @return the record's {@code data_format} */
    int dataFormat();
}
