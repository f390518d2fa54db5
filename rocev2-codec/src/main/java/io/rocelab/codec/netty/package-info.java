/**
 * Netty codecs between the wire and {@link io.rocelab.codec.netty.RocePacket}s: Ethernet frames (frame
 * mode) and UDP datagrams to port 4791 (UDP endpoint mode), checked and counted on the way in,
 * checksummed and ICRC'd last on the way out.
 */
package io.rocelab.codec.netty;
