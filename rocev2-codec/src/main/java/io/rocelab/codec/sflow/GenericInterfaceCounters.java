package io.rocelab.codec.sflow;

/**
 * The generic interface counters record (sFlow v5 {@code if_counters}, enterprise 0 format 1), the
 * counters of RFC 2233's ifTable and ifXTable. A counter the agent does not have is
 * {@link SflowCodec#UNKNOWN} (2^32 - 1; 2^64 - 1 for the 64-bit ones), as the specification asks.
 *
 * @param ifIndex         the interface's ifIndex
 * @param ifType          IANAifType (6: ethernetCsmacd)
 * @param ifSpeed         bits per second (64-bit)
 * @param ifDirection     0 unknown, 1 full duplex, 2 half duplex, 3 in, 4 out
 * @param ifStatus        bit 0 ifAdminStatus up, bit 1 ifOperStatus up
 * @param ifInOctets      octets received (64-bit)
 * @param ifInUcastPkts   unicast packets received
 * @param ifInMulticastPkts multicast packets received
 * @param ifInBroadcastPkts broadcast packets received
 * @param ifInDiscards    received packets discarded
 * @param ifInErrors      received packets with errors
 * @param ifInUnknownProtos received packets of an unknown protocol
 * @param ifOutOctets     octets sent (64-bit)
 * @param ifOutUcastPkts  unicast packets sent
 * @param ifOutMulticastPkts multicast packets sent
 * @param ifOutBroadcastPkts broadcast packets sent
 * @param ifOutDiscards   packets discarded on the way out
 * @param ifOutErrors     packets not sent for errors
 * @param ifPromiscuousMode 1 if the interface takes every frame (a switch port does)
 */
public record GenericInterfaceCounters(long ifIndex, long ifType, long ifSpeed, long ifDirection, long ifStatus,
                                       long ifInOctets, long ifInUcastPkts, long ifInMulticastPkts,
                                       long ifInBroadcastPkts, long ifInDiscards, long ifInErrors,
                                       long ifInUnknownProtos, long ifOutOctets, long ifOutUcastPkts,
                                       long ifOutMulticastPkts, long ifOutBroadcastPkts, long ifOutDiscards,
                                       long ifOutErrors, long ifPromiscuousMode) implements CounterRecord {
    /** The record's XDR length: 19 fields, three of them 64-bit. */
    public static final int LENGTH = 88;

    @Override
    public int dataFormat() {
        return SflowCodec.GENERIC_INTERFACE_COUNTERS;
    }
}
