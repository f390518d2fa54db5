/**
 * The out-of-band TCP exchanges that set up a run before any RDMA traffic: perftest's (version,
 * page and cache-line size, MTU, 108-byte key records, bandwidth reports, "done") and rdma-core
 * pingpong's (one 52-byte record each way, then "done"). Message formats are exact to the byte so
 * that rocelab interoperates with the real tools.
 */
package io.rocelab.perftest.oob;
