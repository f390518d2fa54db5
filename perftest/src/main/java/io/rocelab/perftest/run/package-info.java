/**
 * One run of a tool: {@link io.rocelab.perftest.run.PerftestSession} follows each perftest tool's
 * sequence of exchanges and prints its output; {@link io.rocelab.perftest.run.TestEngine} is the
 * data path, the part that needs a NIC.
 */
package io.rocelab.perftest.run;
