/**
 * perftest on rocelab's soft NIC: {@link io.rocelab.perftest.nic.NicEngine} is the
 * {@link io.rocelab.perftest.run.TestEngine} (device, PD, MR, CQs, QPs, the traffic loops),
 * {@link io.rocelab.perftest.nic.NicOptions} the launcher's own flags (frame-over-UDP port,
 * in-process mode, the NIC's addresses), {@link io.rocelab.perftest.nic.NicTool} a tool's whole
 * command line, and {@link io.rocelab.perftest.nic.InProcessFabric} two NICs' loops and link in
 * one process.
 */
package io.rocelab.perftest.nic;
