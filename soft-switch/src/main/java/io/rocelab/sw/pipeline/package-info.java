/**
 * The stages every received frame passes before it is forwarded (frame size checks, parse, classify,
 * VLAN) and what they fill in about it, the {@link io.rocelab.sw.pipeline.PacketContext}, pooled, with
 * the reasons a frame is dropped ({@link io.rocelab.sw.pipeline.DropReason}).
 */
package io.rocelab.sw.pipeline;
