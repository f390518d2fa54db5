package io.rocelab.fabric.stats;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CounterSetTest {

    enum Names { A, B, C }

    @Test
    void countsPerName() {
        final CounterSet<Names> counters = new CounterSet<>(Names.class);
        counters.increment(Names.A);
        counters.increment(Names.A);
        counters.add(Names.C, 40);

        assertEquals(2, counters.get(Names.A));
        assertEquals(0, counters.get(Names.B));
        assertEquals(40, counters.get(Names.C));
        assertEquals(Map.of(Names.A, 2L, Names.B, 0L, Names.C, 40L), counters.snapshot());
        assertEquals("{A=2, C=40}", counters.toString());
    }

    @Test
    void aReaderOnAnotherThreadSeesTheWritersValues() throws Exception {
        final CounterSet<Names> counters = new CounterSet<>(Names.class);
        final CountDownLatch written = new CountDownLatch(1);
        final Thread writer = new Thread(() -> {
            for (int i = 0; i < 100_000; i++) {
                counters.increment(Names.B);
            }
            written.countDown();
        });
        writer.start();
        written.await();
        assertEquals(100_000, counters.get(Names.B));
        writer.join();
    }
}
