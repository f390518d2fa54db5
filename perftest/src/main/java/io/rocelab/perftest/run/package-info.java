/**
 * One run of a tool, from command line to exit status: {@link io.rocelab.perftest.run.PerftestTool}
 * is the entry point (the command line in, through {@link io.rocelab.perftest.cli}),
 * {@link io.rocelab.perftest.run.PerftestSession} follows each perftest tool's sequence of
 * exchanges and prints its output; {@link io.rocelab.perftest.run.TestEngine} is the data path,
 * the part that needs a NIC, which {@link io.rocelab.perftest.nic} supplies.
 */
package io.rocelab.perftest.run;
