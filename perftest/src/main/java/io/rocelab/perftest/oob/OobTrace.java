package io.rocelab.perftest.oob;

/**
 * Sees every message an {@link OobChannel} writes and reads, in order. For diagnostics and for
 * tests that compare a whole exchange with one captured from real perftest.
 */
public interface OobTrace {
    /** A trace that records nothing. */
    OobTrace NONE = new OobTrace() {
        @Override
        public void sent(String what, byte[] bytes) {
        }

        @Override
        public void received(String what, byte[] bytes) {
        }
    };

    /** Called after {@code bytes} were written. */
    void sent(String what, byte[] bytes);

    /** Called after {@code bytes} were read. */
    void received(String what, byte[] bytes);
}
