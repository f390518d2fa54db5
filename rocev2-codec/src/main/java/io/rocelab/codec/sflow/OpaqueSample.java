package io.rocelab.codec.sflow;

import java.util.Arrays;

/**
 * A sample of a format this codec does not read (an expanded flow or counter sample, formats 3
 * and 4, or another enterprise's), kept as its bytes.
 *
 * @param dataFormat enterprise (top 20 bits) and format (low 12 bits)
 * @param data       the sample's XDR bytes
 */
public record OpaqueSample(int dataFormat, byte[] data) implements SflowSample {
    public OpaqueSample {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OpaqueSample s && s.dataFormat == dataFormat && Arrays.equals(s.data, data);
    }

    @Override
    public int hashCode() {
        return 31 * dataFormat + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "OpaqueSample[" + (dataFormat >>> 12) + ":" + (dataFormat & 0xFFF) + ", " + data.length + " bytes]";
    }
}
