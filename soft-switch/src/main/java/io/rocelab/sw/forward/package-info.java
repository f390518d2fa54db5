/**
 * Where a frame goes: bridging with a bounded FDB, IPv4 and IPv6 longest-prefix routing, and the
 * choice among equal paths, an ECMP group's member by {@link io.rocelab.sw.forward.FlowHash} (or
 * flowlets) and a port channel's member by {@link io.rocelab.sw.forward.LagHash}.
 */
package io.rocelab.sw.forward;
