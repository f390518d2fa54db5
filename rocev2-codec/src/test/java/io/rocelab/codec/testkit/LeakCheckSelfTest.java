package io.rocelab.codec.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;

/** The leak check itself works: an unreleased buffer is noticed. */
class LeakCheckSelfTest {
    @Test
    void anUnreleasedBufferIsRecorded() throws InterruptedException {
        assertTrue(LeakRecorder.installed(), "leak recorder installed by the launcher session");
        LeakRecorder.drain();
        leakOne();
        boolean seen = false;
        for (int round = 0; round < 50 && !seen; round++) {
            System.gc();
            Thread.sleep(10);
            ByteBufAllocator.DEFAULT.buffer(8).release();
            seen = LeakRecorder.drain().stream().anyMatch(s -> s.contains("leaked"));
        }
        assertTrue(seen, "a leaked buffer was reported");
        assertFalse(LeakRecorder.drain().stream().anyMatch(s -> s.contains("leaked")), "drained");
    }

    private static void leakOne() {
        ByteBuf leaked = ByteBufAllocator.DEFAULT.buffer(32);
        leaked.writeInt(42);
    }
}
