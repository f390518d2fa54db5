/**
 * perftest's command line: the flags ({@link io.rocelab.perftest.cli.PerftestCommand}), their
 * checks and the adjustments perftest makes ({@code OptionsValidator}), the resulting settings
 * ({@link io.rocelab.perftest.cli.PerftestOptions}) and the help text. It knows nothing of a run:
 * {@link io.rocelab.perftest.run} reads it.
 */
package io.rocelab.perftest.cli;
