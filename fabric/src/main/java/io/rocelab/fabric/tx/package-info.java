/**
 * The transmitter every sending device owns ({@link io.rocelab.fabric.tx.Transmitter}): when the wire
 * is free and the port writable, it pulls the next frame from the device's
 * {@link io.rocelab.fabric.tx.TransmitSource} (docs/design.md §7).
 */
package io.rocelab.fabric.tx;
