/**
 * Port channels at run time (docs/design.md §14): their members and which of them carry frames
 * ({@link io.rocelab.sw.lag.LagGroup}), the way from a port to the interface it is part of
 * ({@link io.rocelab.sw.lag.PortChannels}), and LACP on them ({@link io.rocelab.sw.lag.SwitchLacp}).
 */
package io.rocelab.sw.lag;
