package io.rocelab.codec.sflow;

import java.util.Arrays;

/**
 * The raw packet header record (sFlow v5 {@code sampled_header}, enterprise 0 format 1): the first
 * bytes of the sampled frame as they were on the wire.
 *
 * @param protocol    {@code header_protocol}: {@link SflowCodec#HEADER_ETHERNET} (1, ETHERNET-ISO88023) here
 * @param frameLength {@code frame_length}: the frame's original length; for a layer 2 protocol the
 *                    octets on the network excluding framing bits but including the FCS
 * @param stripped    {@code stripped}: octets removed before the header was taken (4: the FCS)
 * @param header      {@code header<>}: the first bytes of the frame (at most 128 as SONiC's agent takes)
 */
public record RawPacketHeader(int protocol, long frameLength, long stripped, byte[] header) implements FlowRecord {
    public RawPacketHeader {
        header = header.clone();
    }

    @Override
    public int dataFormat() {
        return SflowCodec.RAW_PACKET_HEADER;
    }

    @Override
    public byte[] header() {
        return header.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawPacketHeader r && r.protocol == protocol && r.frameLength == frameLength
            && r.stripped == stripped && Arrays.equals(r.header, header);
    }

    @Override
    public int hashCode() {
        return ((protocol * 31 + Long.hashCode(frameLength)) * 31 + Long.hashCode(stripped)) * 31
            + Arrays.hashCode(header);
    }

    @Override
    public String toString() {
        return "RawPacketHeader[protocol=" + protocol + ", frameLength=" + frameLength + ", stripped=" + stripped
            + ", " + header.length + " header bytes]";
    }
}
