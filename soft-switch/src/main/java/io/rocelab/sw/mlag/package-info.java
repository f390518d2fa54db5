/**
 * MLAG (docs/design.md §14): this switch's half of a SONiC {@code MCLAG_DOMAIN}
 * ({@link io.rocelab.sw.mlag.MlagPeer}) and what the two peers tell each other over their peer link
 * ({@link io.rocelab.sw.mlag.MlagMessage}).
 */
package io.rocelab.sw.mlag;
