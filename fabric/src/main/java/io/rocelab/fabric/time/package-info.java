/**
 * Injected time: {@link io.rocelab.fabric.time.Clock}, {@link io.rocelab.fabric.time.Scheduler} and
 * their implementations.
 *
 * <ul>
 *   <li>{@link io.rocelab.fabric.time.VirtualTimeScheduler}: a single-threaded discrete-event
 *       scheduler; time jumps from event to event, so a simulated fabric runs faster or slower than
 *       real time and is reproducible bit for bit;</li>
 *   <li>{@link io.rocelab.fabric.time.RealTimeScheduler}: a Netty event loop and
 *       {@code System.nanoTime()};</li>
 *   <li>{@link io.rocelab.fabric.time.ManualClock}: a clock that a test moves by hand.</li>
 * </ul>
 */
package io.rocelab.fabric.time;
