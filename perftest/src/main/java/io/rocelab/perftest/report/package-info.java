/**
 * perftest's output, character for character: the header block, the address lines, the
 * bandwidth and latency tables and the numbers in them, computed as perftest computes them. Pure
 * functions from values to text, so that they are tested without a NIC or a network.
 */
package io.rocelab.perftest.report;
