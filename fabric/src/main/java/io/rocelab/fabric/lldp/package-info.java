/**
 * LLDP (IEEE 802.1AB-2016) on any device's port: the {@link io.rocelab.fabric.lldp.LldpAgent} (the
 * transmit machine with its fast start, the receive machine with one neighbour per port aged at
 * its TTL) and what it learnt, {@link io.rocelab.fabric.lldp.LldpNeighbor}. Here, below both the
 * switch and the NIC, so that a switch port and a NIC port speak the same protocol code; its frames
 * are the codec's {@link io.rocelab.codec.lldp.Lldpdu}, its time only the injected
 * {@link io.rocelab.fabric.time.Scheduler}.
 */
package io.rocelab.fabric.lldp;
