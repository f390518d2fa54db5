package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.RateLimit;
import io.rocelab.perftest.RateLimitType;
import io.rocelab.perftest.RateUnits;
import org.junit.jupiter.api.Test;

/** perftest's SW limiter: bursts of {@code --burst_size} posts, one burst per gap, late bursts catch up. */
class SwRateLimiterTest {
    @Test
    void burstsOfBurstSizeOneGapApart() {
        // 1000 messages a second in bursts of 10: a burst every 10 ms
        SwRateLimiter l = new SwRateLimiter(new RateLimit(RateLimitType.SW, 1000, RateUnits.PACKET_PS, 10, true), 64);
        assertEquals(10_000_000L, l.gapNanos());
        assertTrue(l.mayPost(5));
        l.posted(6);
        assertTrue(l.sending());
        l.posted(4);
        assertFalse(l.sending(), "the burst is over after 10 posts");
        assertFalse(l.mayPost(5 + 9_999_999));
        assertEquals(5 + 10_000_000L, l.nextBurstAtNanos());
        assertTrue(l.mayPost(5 + 10_000_000));
    }

    @Test
    void aLateLoopCatchesUp() {
        SwRateLimiter l = new SwRateLimiter(new RateLimit(RateLimitType.SW, 1000, RateUnits.PACKET_PS, 10, true), 64);
        assertTrue(l.mayPost(0));
        l.posted(10);
        // 35 ms late: the bursts due at 10, 20 and 30 ms go at once, the next is due at 40 ms
        for (int i = 0; i < 3; i++) {
            assertTrue(l.mayPost(35_000_000), "burst " + i);
            l.posted(10);
        }
        assertFalse(l.mayPost(35_000_000));
        assertEquals(40_000_000L, l.nextBurstAtNanos());
    }

    @Test
    void ratesConvertAsPerftestConvertsThem() {
        assertEquals(1e9 / (8 * 4096), new RateLimit(RateLimitType.SW, 1, RateUnits.GIGA_BIT_PS, 1, false)
                .messagesPerSecond(4096), 1e-6);
        assertEquals(100.0 * 1_048_576 / 65536, new RateLimit(RateLimitType.SW, 100, RateUnits.MEGA_BYTE_PS, 1, false)
                .messagesPerSecond(65536), 1e-6);
        assertEquals(2.5e9, new RateLimit(RateLimitType.HW, 2.5, RateUnits.GIGA_BIT_PS, 1, false).nicBitsPerSecond());
        assertEquals(100 * 8.0 * 1_048_576, new RateLimit(RateLimitType.HW, 100, RateUnits.MEGA_BYTE_PS, 1, false)
                .nicBitsPerSecond());
        // packet pacing counts M as 8 x 1024 kb/s
        assertEquals(128 * 8 * 1024 * 1000.0, new RateLimit(RateLimitType.PP, 128, RateUnits.MEGA_BYTE_PS, 0, false)
                .nicBitsPerSecond());
        assertThrows(IllegalStateException.class,
                () -> new RateLimit(RateLimitType.SW, 1, RateUnits.GIGA_BIT_PS, 1, false).nicBitsPerSecond());
        assertThrows(IllegalArgumentException.class,
                () -> new RateLimit(RateLimitType.HW, 0, RateUnits.GIGA_BIT_PS, 1, false));
    }
}
