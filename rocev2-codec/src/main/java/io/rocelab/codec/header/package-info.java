/**
 * One class per header on the wire, mostly static accessors over a {@code ByteBuf} at an offset:
 * Ethernet, 802.1Q, ARP, LACPDUs (a record), PFC, IPv4, IPv6, UDP, the BTH and every IBA extension
 * header, each field laid out as the standard that defines it does.
 */
package io.rocelab.codec.header;
