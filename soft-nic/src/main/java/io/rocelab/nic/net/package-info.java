/**
 * The soft NIC's link and network layer below RoCEv2: its addresses ({@link io.rocelab.nic.net.Gid},
 * IPv4-mapped or IPv6), its Ethernet/802.1Q framing
 * ({@link io.rocelab.nic.net.L2Framing}), ARP for IPv4 peers ({@link io.rocelab.nic.net.Neighbors}),
 * IPv6 neighbour discovery ({@link io.rocelab.nic.net.NeighborDiscovery}, {@link io.rocelab.nic.net.Icmpv6})
 * and the ECN codepoints ({@link io.rocelab.nic.net.Ecn}). Frames waiting for an address are parked
 * here, bounded, and dropped with a counter when resolution fails. Owner thread only.
 */
package io.rocelab.nic.net;
