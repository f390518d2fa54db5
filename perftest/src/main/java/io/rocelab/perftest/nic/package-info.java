/**
 * perftest on rocelab's soft NIC, the top layer of perftest's packages: {@link io.rocelab.perftest.nic.NicEngine}
 * is the {@link io.rocelab.perftest.run.TestEngine} (the device and rdma_cm; the QPs and buffers
 * in {@code NicQueues}, the traffic loops in {@code BandwidthRun}, ended by a {@code BwEnd}, and
 * {@code LatencyRun}), {@link io.rocelab.perftest.nic.NicOptions} the launcher's own flags
 * (frame-over-UDP port, in-process mode, the NIC's addresses; read by picocli as the
 * {@link io.rocelab.perftest.nic.NicFlags} mixin), {@link io.rocelab.perftest.nic.NicTool} a
 * tool's whole command line, and {@link io.rocelab.perftest.nic.InProcessFabric} two NICs' loops
 * and link in one process.
 */
package io.rocelab.perftest.nic;
