/**
 * Fabric generators: {@link io.rocelab.topology.generate.LeafSpine} and
 * {@link io.rocelab.topology.generate.FatTree}, with addresses, ECMP routes and one QoS profile.
 */
package io.rocelab.topology.generate;
