/**
 * The fabric check, "does my lossless class really work?": {@code rocelab lab check --lossless} and
 * {@code rocelab switch check}. A {@link io.rocelab.lab.check.FabricView} holds what the checks read
 * (the switches' SONiC configurations, the NICs' DCB settings, the cables between their ports and the
 * assumptions a check needs), built from a lab ({@link io.rocelab.lab.check.LabFabric}) or from
 * config_db.json files ({@link io.rocelab.lab.check.ConfigFabric}); each {@link
 * io.rocelab.lab.check.FabricCheck} adds its {@link io.rocelab.lab.check.Finding}s, and {@link
 * io.rocelab.lab.check.LosslessCheck} runs them all and prints one line per finding.
 */
package io.rocelab.lab.check;
