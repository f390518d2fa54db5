package io.rocelab.codec.sflow;

/**
 * The Ethernet interface counters record (sFlow v5 {@code ethernet_counters}, enterprise 0 format 2):
 * RFC 2358's dot3StatsTable, 32-bit each.
 */
public record EthernetCounters(long alignmentErrors, long fcsErrors, long singleCollisionFrames,
                               long multipleCollisionFrames, long sqeTestErrors, long deferredTransmissions,
                               long lateCollisions, long excessiveCollisions, long internalMacTransmitErrors,
                               long carrierSenseErrors, long frameTooLongs, long internalMacReceiveErrors,
                               long symbolErrors) implements CounterRecord {
    /** The record's XDR length: 13 32-bit counters. */
    public static final int LENGTH = 52;

    @Override
    public int dataFormat() {
        return SflowCodec.ETHERNET_INTERFACE_COUNTERS;
    }
}
