/**
 * Link aggregation control (IEEE 802.1AX LACP) for any device with aggregated ports: the per-port
 * {@link io.rocelab.fabric.lag.LacpActor} (receive, periodic transmission, transmission, mux
 * machines) and the {@link io.rocelab.fabric.lag.LacpAggregator} that decides which ports
 * aggregate. Here, below both the switch and the NIC, so that a switch's port channel and a host's
 * bond in 802.3ad mode run the same protocol code; its frames are the codec's
 * {@link io.rocelab.codec.header.Lacpdu}, its time only the injected
 * {@link io.rocelab.fabric.time.Scheduler}.
 */
package io.rocelab.fabric.lag;
