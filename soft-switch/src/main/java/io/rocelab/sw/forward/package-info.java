/**
 * Where a frame goes: bridging with a bounded FDB, IPv4 and IPv6 longest-prefix routing, and the
 * choice among equal paths, an ECMP group's member by its {@link io.rocelab.sw.forward.LoadBalancer}
 * (the {@link io.rocelab.sw.forward.FlowHash}, flowlets, flowlets or packets by
 * {@link io.rocelab.sw.forward.PortQuality}: SAI's adaptive routing and switching) and a port
 * channel's member by {@link io.rocelab.sw.forward.LagHash}.
 */
package io.rocelab.sw.forward;
