package io.rocelab.fabric.testing;

import java.util.function.BooleanSupplier;

/**
 * Bounded waiting for real-time tests: polls a condition until it holds or the deadline passes,
 * then fails naming what it waited for. Tests on real event loops use it instead of sleeping a
 * guessed amount.
 */
public final class Await {
    private Await() {
    }

    public static void until(BooleanSupplier condition, long timeoutNanos, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }
}
