/**
 * The out-of-band TCP exchanges that set up a run before any RDMA traffic: perftest's (version,
 * page and cache-line size, MTU, 108-byte key records, bandwidth reports
 * ({@link io.rocelab.perftest.oob.BwResult}, perftest's {@code struct bw_report_data}), "done") and
 * rdma-core pingpong's (one 52-byte record each way, then "done"). Message formats are exact to
 * the byte so that rocelab interoperates with the real tools. Uses only perftest's vocabulary
 * ({@link io.rocelab.perftest}); the output ({@code report}) and the runs ({@code run}) use it.
 */
package io.rocelab.perftest.oob;
