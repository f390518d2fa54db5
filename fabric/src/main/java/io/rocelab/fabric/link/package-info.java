/**
 * In-process links: two {@link io.rocelab.fabric.port.FramePort}s joined in memory, with a wire
 * model (line rate, Ethernet framing overhead, one transmit queue per direction, propagation delay)
 * and seeded fault injection (loss, reordering, duplication, corruption, link down).
 *
 * <p>The default transport of labs and tests. Only the injected
 * {@link io.rocelab.fabric.time.Scheduler} is used, so a link behaves the same in virtual time
 * (exact, deterministic) and in real time (approximate timing, hand-over between event loops).
 */
package io.rocelab.fabric.link;
