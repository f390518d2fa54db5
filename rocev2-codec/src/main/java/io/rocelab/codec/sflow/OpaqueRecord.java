package io.rocelab.codec.sflow;

import java.util.Arrays;

/**
 * A flow or counter record of a format this codec does not read, kept as its bytes (sFlow v5:
 * "a collector must skip a record whose data_format it does not understand").
 *
 * @param dataFormat enterprise (top 20 bits) and format (low 12 bits)
 * @param data       the record's XDR bytes, a multiple of 4 long
 */
public record OpaqueRecord(int dataFormat, byte[] data) implements FlowRecord, CounterRecord {
    public OpaqueRecord {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OpaqueRecord r && r.dataFormat == dataFormat && Arrays.equals(r.data, data);
    }

    @Override
    public int hashCode() {
        return 31 * dataFormat + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "OpaqueRecord[" + (dataFormat >>> 12) + ":" + (dataFormat & 0xFFF) + ", " + data.length + " bytes]";
    }
}
