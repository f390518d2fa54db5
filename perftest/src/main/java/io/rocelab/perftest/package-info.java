/**
 * perftest-compatible {@code ib_*_bw} and {@code ib_*_lat} tools for rocelab.
 *
 * <p>{@link io.rocelab.perftest.PerftestTool} is the entry point: a command line in
 * ({@link io.rocelab.perftest.cli}), the out-of-band exchange with the peer
 * ({@link io.rocelab.perftest.oob}), the run's sequence of exchanges and output
 * ({@link io.rocelab.perftest.run}) and perftest's text ({@link io.rocelab.perftest.report}).
 * Everything but the traffic itself is here; the traffic is a
 * {@link io.rocelab.perftest.run.TestEngine} supplied by the soft NIC.
 *
 * <p>The reference is perftest 4.5-0.18 (protocol version 6.06), the release Linux Soft-RoCE
 * users meet in Debian 12 and the one rocelab's reference captures were made with, so that a
 * rocelab tool and a real perftest can run against each other and their output can be compared
 * line by line.
 */
package io.rocelab.perftest;
