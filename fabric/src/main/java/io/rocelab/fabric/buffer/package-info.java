/**
 * Frame buffers: {@link io.rocelab.fabric.buffer.FramePoolAllocator}, a free list of same-sized
 * direct buffers for the frames a NIC or switch builds and another thread may free.
 */
package io.rocelab.fabric.buffer;
