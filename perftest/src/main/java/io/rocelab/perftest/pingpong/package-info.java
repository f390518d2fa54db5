/**
 * rdma-core's {@code ibv_*_pingpong} tools: which one ({@link io.rocelab.perftest.pingpong.PingpongKind})
 * and its command line ({@link io.rocelab.perftest.pingpong.PingpongOptions}), read with perftest's
 * number syntax and errors ({@link io.rocelab.perftest.cli}). The run itself is the soft NIC's
 * ({@link io.rocelab.perftest.nic}).
 */
package io.rocelab.perftest.pingpong;
