/**
 * The one abstraction every frame transport implements: {@link io.rocelab.fabric.port.FramePort}.
 *
 * <p>A NIC or a switch port sees only a {@code FramePort}: whole Ethernet frames (destination MAC
 * first, no FCS) in Netty {@code ByteBuf}s, and an up/down state. Whether the other end is an
 * in-process link, a UDP socket shared with a qemu VM, or a raw interface is decided when the lab
 * is built, not in protocol code.
 */
package io.rocelab.fabric.port;
