package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Doorbell;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every way a task reaches the scheduler through a {@link GuardedScheduler} reports what the task
 * throws, in order, and the scheduler goes on with the next task; the rest is the wrapped
 * scheduler's: its clock, its order, its cancellation.
 */
class GuardedSchedulerTest {
    private static final long MS = 1_000_000L;

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final List<String> errors = new ArrayList<>();
    private final List<String> ran = new ArrayList<>();
    private final GuardedScheduler guarded = new GuardedScheduler(sched, e -> errors.add(e.getMessage()));

    @Test
    void whatEachKindOfTaskThrowsIsReportedAndTheSchedulerGoesOn() {
        guarded.schedule(3 * MS, failing("schedule"));
        guarded.scheduleAt(4 * MS, failing("scheduleAt"));
        guarded.scheduleUncancellable(2 * MS, failing("scheduleUncancellable"));
        guarded.execute(failing("execute"));
        sched.schedule(5 * MS, () -> ran.add("a plain task after them"));
        Doorbell bell = guarded.doorbell(() -> {
            throw new IllegalStateException("doorbell");
        });
        sched.runFor(1 * MS);
        bell.ring();
        sched.runFor(10 * MS);
        assertEquals(List.of("execute", "doorbell", "scheduleUncancellable", "schedule", "scheduleAt"), errors);
        assertEquals(List.of("a plain task after them"), ran);
    }

    @Test
    void cancellationClockAndOwnerAreTheWrappedSchedulers() {
        Cancellable c = guarded.schedule(2 * MS, () -> ran.add("cancelled"));
        guarded.schedule(3 * MS, () -> ran.add("kept at " + sched.nanoTime() / MS + " ms"));
        c.cancel();
        sched.runFor(5 * MS);
        assertEquals(List.of("kept at 3 ms"), ran);
        assertEquals(sched.nanoTime(), guarded.nanoTime());
        assertEquals(sched.inOwnerThread(), guarded.inOwnerThread());
        assertEquals(0, guarded.timerSlackNanos(), "virtual time: no slack");
        assertEquals(List.of(), errors);
    }

    private static Runnable failing(String what) {
        return () -> {
            throw new IllegalStateException(what);
        };
    }

    /** The NIC's transmitters read the slack through this scheduler: a real-time loop's must come through. */
    @Test
    void theTimerSlackIsTheWrappedSchedulers() {
        RealTimeScheduler loop = RealTimeScheduler.start("guarded-slack");
        try {
            GuardedScheduler g = new GuardedScheduler(loop, e -> errors.add(e.getMessage()));
            assertTrue(loop.timerSlackNanos() > 0, "a real-time loop lets its transmitters run ahead");
            assertEquals(loop.timerSlackNanos(), g.timerSlackNanos());
        } finally {
            loop.close();
        }
    }
}
