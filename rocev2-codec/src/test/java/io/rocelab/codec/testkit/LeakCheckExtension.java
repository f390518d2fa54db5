package io.rocelab.codec.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * After each test class, forces a garbage collection and lets Netty's leak detectors look at what
 * was collected (detectors report when the next buffer is tracked); any leak fails the class,
 * with Netty's record of where the buffer was last touched. Registered for every test class by
 * service loading (junit.jupiter.extensions.autodetection.enabled).
 */
public final class LeakCheckExtension implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        List<String> leaks = collectLeaks();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer leak(s) in " + context.getDisplayName() + ":\n"
                    + String.join("\n", leaks));
        }
    }

    /**
     * Collects garbage, lets the leak detectors report, and returns the leaks recorded since the
     * last call (empty when none, or when the recorder is not installed). For test engines other
     * than Jupiter, such as jqwik's properties ({@link HostileBudget}).
     */
    public static List<String> collectLeaks() throws InterruptedException {
        if (!LeakRecorder.installed()) {
            return List.of();
        }
        for (int round = 0; round < 3; round++) {
            System.gc();
            Thread.sleep(20);
            for (int i = 0; i < 64; i++) {
                ByteBuf probe = ByteBufAllocator.DEFAULT.buffer(16);
                probe.release();
            }
        }
        return LeakRecorder.drain();
    }
}
