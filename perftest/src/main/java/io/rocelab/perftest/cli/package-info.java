/**
 * perftest's command line: the flags ({@link io.rocelab.perftest.cli.PerftestCommand}), their
 * checks and the adjustments perftest makes ({@code OptionsValidator}), the resulting settings
 * ({@link io.rocelab.perftest.cli.PerftestOptions}) and the help text.
 */
package io.rocelab.perftest.cli;
