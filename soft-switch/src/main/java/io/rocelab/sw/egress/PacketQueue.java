package io.rocelab.sw.egress;

import io.rocelab.sw.pipeline.PacketContext;

/** A FIFO of packet contexts linked through {@link PacketContext#next}: no allocation per frame. */
public final class PacketQueue {
    private PacketContext head;
    private PacketContext tail;
    private int packets;
    private long bytes;
    private long watermarkBytes;

    public void add(PacketContext c) {
        c.next = null;
        if (tail == null) {
            head = c;
        } else {
            tail.next = c;
        }
        tail = c;
        packets++;
        bytes += c.length;
        watermarkBytes = Math.max(watermarkBytes, bytes);
    }

    /**
     * A frame of {@code length} bytes went through this empty queue at once (added and polled in
     * the same step): only the watermark remembers it.
     */
    public void passedThrough(int length) {
        watermarkBytes = Math.max(watermarkBytes, bytes + length);
    }

    /** @return the head, or null */
    public PacketContext peek() {
        return head;
    }

    /** @return the removed head, or null */
    public PacketContext poll() {
        PacketContext c = head;
        if (c == null) {
            return null;
        }
        head = c.next;
        if (head == null) {
            tail = null;
        }
        c.next = null;
        packets--;
        bytes -= c.length;
        return c;
    }

    public boolean isEmpty() {
        return head == null;
    }

    public int packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    /** @return the deepest this queue has been, in bytes */
    public long watermarkBytes() {
        return watermarkBytes;
    }
}
