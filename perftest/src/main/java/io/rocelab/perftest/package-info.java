/**
 * perftest-compatible {@code ib_*_bw} and {@code ib_*_lat} tools for rocelab; this package itself
 * is their vocabulary, the values every other package shares and which depend on nothing of
 * perftest's: the tools ({@link io.rocelab.perftest.TestKind}), verbs, connection and atomic
 * types, MTUs, rate limits, report units, and C's {@code printf} number formatting
 * ({@link io.rocelab.perftest.CFormat}) that both the wire format and the output use.
 *
 * <p>The packages are layers, each using only the ones before it (PackageCyclesTest holds them to
 * it): the out-of-band exchange with the peer ({@link io.rocelab.perftest.oob}), perftest's text
 * ({@link io.rocelab.perftest.report}), the command lines ({@link io.rocelab.perftest.cli},
 * {@link io.rocelab.perftest.pingpong}), one run of a tool from command line to exit status
 * ({@link io.rocelab.perftest.run}, whose {@link io.rocelab.perftest.run.PerftestTool} is the entry
 * point), and the data path on rocelab's soft NIC with the launchers around it
 * ({@link io.rocelab.perftest.nic}). Everything but the traffic itself is above {@code nic}; the
 * traffic is a {@link io.rocelab.perftest.run.TestEngine} supplied by the soft NIC.
 *
 * <p>The reference is perftest 4.5-0.18 (protocol version 6.06; 4.5-0.17 prints the same), the
 * version the perftest of rocelab's rxe reference VM announces in the reference captures, so that
 * a rocelab tool and that perftest can run against each other and their output can be compared
 * line by line.
 */
package io.rocelab.perftest;
