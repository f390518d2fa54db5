/**
 * What a router's control plane puts on a point-to-point link: BGP-4 messages in TCP
 * ({@link io.rocelab.codec.routing.BgpMessage}, RFC 4271, RFC 4760), BFD control packets in UDP
 * ({@link io.rocelab.codec.routing.BfdPacket}, RFC 5880, RFC 5881), the frames that carry them
 * ({@link io.rocelab.codec.routing.ControlFrame}) and the prefixes BGP carries.
 */
package io.rocelab.codec.routing;
