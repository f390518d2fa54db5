package io.rocelab.fabric.testing;

/**
 * One frame as a {@link RecordingPort} saw it: when, its {@link TestFrames} id (-1 when shorter
 * than a test frame; meaningless for other frames), its BTH PSN (-1 when not RoCE), whether it is
 * a PFC frame, its length, its bytes (when kept) and the thread it came on.
 */
public record Delivery(long timeNanos, int id, int psn, boolean pfc, int length, byte[] bytes, String thread) {
}
