/**
 * perftest's output, character for character: the header block, the address lines, the
 * bandwidth and latency tables and the numbers in them, computed as perftest computes them. Pure
 * functions from values to text, so that they are tested without a NIC or a network. It prints
 * what the out-of-band exchange carried (key records, bandwidth reports: {@link io.rocelab.perftest.oob})
 * and knows nothing of the command line or of a run.
 */
package io.rocelab.perftest.report;
