/**
 * perftest's command line: the flags ({@link io.rocelab.perftest.cli.PerftestCommand}, grouped by
 * concern in mixins), their checks and the adjustments perftest makes ({@code OptionsValidator}),
 * the resulting settings ({@link io.rocelab.perftest.cli.PerftestOptions}, one record per concern:
 * {@link io.rocelab.perftest.cli.TestShape}, {@link io.rocelab.perftest.cli.Peer},
 * {@link io.rocelab.perftest.cli.RdmaDevice}, {@link io.rocelab.perftest.cli.Queues},
 * {@link io.rocelab.perftest.cli.Reporting}, {@link io.rocelab.perftest.cli.RateQos}) and the help
 * text. It knows nothing of a run: {@link io.rocelab.perftest.run} reads it.
 */
package io.rocelab.perftest.cli;
