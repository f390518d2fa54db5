package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Test access to state that only a switch's owner thread may touch, and waiting for it from outside. */
public final class OwnerThread {
    private OwnerThread() {
    }

    /** Runs {@code what} on the owner thread behind {@code owner} and returns its result (or rethrows). */
    public static <T> T call(Executor owner, Supplier<T> what) {
        CompletableFuture<T> f = new CompletableFuture<>();
        owner.execute(() -> {
            try {
                f.complete(what.get());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f.join();
    }

    /** Polls {@code done} every millisecond; fails the test after 5 s. */
    public static void await(BooleanSupplier done) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, "timed out");
            Thread.sleep(1);
        }
    }
}
