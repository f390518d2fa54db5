/**
 * The topology model: {@link io.rocelab.topology.model.Host}s (soft NICs),
 * {@link io.rocelab.topology.model.SwitchNode}s (soft switches with a SONiC-shaped configuration) and
 * {@link io.rocelab.topology.model.Link}s between two {@link io.rocelab.topology.model.Attachment}s,
 * gathered and checked by {@link io.rocelab.topology.model.Topology.Builder}: a topology is data, not wiring.
 * It sits below the packages that fill it in (routes), generate it and run it (the fabric).
 */
package io.rocelab.topology.model;
