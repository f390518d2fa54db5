package io.rocelab.fabric.wire;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import java.math.BigInteger;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The timeline keeps each frame size's serialization time aside, so that a run of equal frames costs
 * no division: against a model that adds every frame's exact bits (big integers, no remainder kept),
 * the end of every frame, rounded up, is the same whatever mix of sizes, gaps and rates comes.
 */
class WireTimelinePropertyTest {

    @Property(tries = 300)
    void everyFrameEndsWhereTheExactSumOfItsBitsSays(
            @ForAll @LongRange(min = 1_000_000, max = 800_000_000_000L) long rate,
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 64, max = 9_300) Integer> sizes,
            @ForAll @Size(min = 60, max = 60) List<@IntRange(min = 0, max = 3) Integer> gaps) {
        final WireTimeline t = new WireTimeline(rate);
        final BigInteger r = BigInteger.valueOf(rate);
        final BigInteger nanosPerSecond = BigInteger.valueOf(1_000_000_000L);
        // the model: when the wire is free, in units of 1/rate ns, exactly
        BigInteger freeAt = null;
        long now = 0;
        for (int i = 0; i < sizes.size(); i++) {
            final int bytes = sizes.get(i);
            // now moves on by 0, a little, or past the end of the backlog
            now += gaps.get(i) == 0 ? 0 : gaps.get(i) == 1 ? 7 : gaps.get(i) == 2 ? 1_000 : 100_000_000;
            final BigInteger nowScaled = BigInteger.valueOf(now).multiply(r);
            final BigInteger start = freeAt == null || nowScaled.compareTo(freeAt) > 0 ? nowScaled : freeAt;
            freeAt = start.add(BigInteger.valueOf(bytes * 8L).multiply(nanosPerSecond));
            final BigInteger[] qr = freeAt.divideAndRemainder(r);
            final long expected = qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
            assertEquals(expected, t.transmit(now, bytes), "frame " + i + " of " + bytes + " B at " + rate + " b/s");
        }
    }
}
