/**
 * Builds and runs a {@link io.rocelab.topology.model.Topology}: a soft NIC per host, a soft switch per
 * switch, an in-process link per link, on one virtual-time scheduler (deterministic: same seed, same
 * run) or on an event loop per NIC and per switch (real time).
 */
package io.rocelab.topology.fabric;
