/**
 * What a frame costs on an Ethernet wire: the bytes it occupies beyond its own
 * ({@link io.rocelab.fabric.wire.EthernetFraming}, IEEE 802.3) and when the wire is free again at its
 * line rate ({@link io.rocelab.fabric.wire.WireTimeline}). Plain arithmetic, below both a device's
 * transmitter and an in-process link, so that the two pace frames by the same rules.
 */
package io.rocelab.fabric.wire;
