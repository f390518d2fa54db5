package io.rocelab.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.SelectStrategy;

import org.junit.jupiter.api.Test;

/** The idle policy of a UDP endpoint loop, on a clock the test moves. */
class SpinThenBlockTest {
    private long now = 1_000_000;
    private int selects;
    private int ready;

    private int ask(SpinThenBlock s, boolean hasTasks) throws Exception {
        return s.calculateStrategy(() -> {
            selects++;
            return ready;
        }, hasTasks);
    }

    @Test
    void afterWorkItPollsForTheSpinTimeThenBlocks() throws Exception {
        SpinThenBlock s = new SpinThenBlock(100_000, () -> now);
        ready = 3;
        assertEquals(3, ask(s, false), "events ready: handled at once");
        ready = 0;
        assertEquals(0, ask(s, false), "nothing ready: poll again, do not block");
        now += 99_999;
        assertEquals(0, ask(s, false), "still within 100 µs of going idle");
        now += 1;
        assertEquals(SelectStrategy.SELECT, ask(s, false), "100 µs idle: block");
        assertEquals(4, selects, "every answer but the blocking one polled epoll (timeout 0) first");
    }

    @Test
    void workOrTasksStartANewWhileOfPolling() throws Exception {
        SpinThenBlock s = new SpinThenBlock(100_000, () -> now);
        assertEquals(0, ask(s, false));
        now += 60_000;
        assertEquals(0, ask(s, true), "a task to run: poll and run it");
        now += 60_000;
        assertEquals(0, ask(s, false), "the task ended the idle while: 100 µs more from here");
        now += 100_000;
        assertEquals(SelectStrategy.SELECT, ask(s, false));
        assertEquals(0, ask(s, false), "after a blocking wait the next idle while starts afresh");
    }

    @Test
    void zeroBlocksAtOnceAsNettysDefault() throws Exception {
        SpinThenBlock s = new SpinThenBlock(0, () -> now);
        assertEquals(SelectStrategy.SELECT, ask(s, false));
        assertEquals(0, selects, "no poll before blocking");
        ready = 2;
        assertEquals(2, ask(s, true), "tasks pending: poll without blocking");
        assertThrows(IllegalArgumentException.class, () -> new SpinThenBlock(-1, () -> now));
    }
}
