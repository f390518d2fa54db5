/**
 * QoS profiles: one name ({@code lossless}, {@code lossy}) for the whole fabric's classification,
 * buffers, PFC, WRED/ECN, ETS and PFC watchdog, applied to each switch's SONiC tables.
 */
package io.rocelab.topology.qos;
