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
 * <p>The reference is perftest 4.5-0.18 (protocol version 6.06; 4.5-0.17 prints the same), the
 * version the perftest of rocelab's rxe reference VM announces in the reference captures, so that
 * a rocelab tool and that perftest can run against each other and their output can be compared
 * line by line.
 */
package io.rocelab.perftest;
