/**
 * Ports on Linux interfaces (a veth end, a real NIC): {@link io.rocelab.fabric.raw.RawEthernetPort}
 * sends and receives whole Ethernet frames through a {@link io.rocelab.fabric.raw.RawSocket}
 * backend ({@link io.rocelab.fabric.raw.AfPacketRawSocket}: an AF_PACKET socket with batched receive;
 * {@link io.rocelab.fabric.raw.PcapRawSocket}: libpcap through pcap4j), receiving only
 * the frames that come in on the interface.
 */
package io.rocelab.fabric.raw;
