/**
 * How a port reacts in time to a received PFC (IEEE 802.1Qbb) or PAUSE (IEEE 802.3 Annex 31B)
 * frame: the delay before it stops sending ({@link io.rocelab.fabric.pfc.PauseResponse}) and the
 * per-priority pause state that delay shapes ({@link io.rocelab.fabric.pfc.PauseTimers}). A soft
 * NIC's egress and a soft switch's egress port both hold one.
 */
package io.rocelab.fabric.pfc;
