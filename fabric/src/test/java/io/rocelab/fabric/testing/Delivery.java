package io.rocelab.fabric.testing;

/**
 * One frame as a receiver saw it: when, which id, its length and its bytes.
 */
public record Delivery(long timeNanos, int id, int length, byte[] bytes, String thread) {
}
