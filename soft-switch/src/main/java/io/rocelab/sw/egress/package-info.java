/**
 * The egress side of each port ({@link io.rocelab.sw.egress.EgressPort}): eight queues, the pause
 * state received PFC sets, WRED/ECN at dequeue, ETS scheduling, and the port's transmitter, which
 * pulls the next frame from them.
 */
package io.rocelab.sw.egress;
