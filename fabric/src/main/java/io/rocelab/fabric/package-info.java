/**
 * The runtime that soft NICs and soft switches live in: injected time ({@link io.rocelab.fabric.time}),
 * frame ports ({@link io.rocelab.fabric.port}), the transmitter a sending device owns
 * ({@link io.rocelab.fabric.tx}) and the wire arithmetic it shares with links
 * ({@link io.rocelab.fabric.wire}), in-process links with fault injection
 * ({@link io.rocelab.fabric.link}) and frame-over-UDP ports ({@link io.rocelab.fabric.udp}).
 *
 * <p>Protocol code never reads the wall clock and never owns a thread: it is handed a
 * {@link io.rocelab.fabric.time.Scheduler} and is called on that scheduler's single owner thread.
 * The same code therefore runs in deterministic virtual time (tests, simulations) and in real time
 * on a Netty event loop (labs against real processes and VMs).
 */
package io.rocelab.fabric;
