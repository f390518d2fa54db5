package io.rocelab.topology.timeline;

import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.workload.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Applies {@link Event}s to a fabric and its workload at their times. Virtual time: each event is an
 * event of the fabric's scheduler at exactly its time (events at the same time in the order given),
 * so a run with a timeline is as deterministic as one without. Real time: a timer thread of its own
 * applies them through the fabric's, the NICs' and the workload's thread-safe methods.
 *
 * <p>Time 0 is the workload's start ({@link Workload#epochNanos()}), or, without a workload, the
 * fabric's clock when {@link #schedule} is called.
 */
public final class Timeline implements AutoCloseable {
    private final Fabric fabric;
    private final Workload workload;
    private final long epoch;
    private final List<String> applied = Collections.synchronizedList(new ArrayList<>());
    private final List<Cancellable> pending = new ArrayList<>();
    private final RealTimeScheduler timer;

    private Timeline(Fabric fabric, Workload workload, List<Event> events) {
        this.fabric = fabric;
        this.workload = workload;
        Scheduler clock;
        if (fabric.mode() == FabricMode.VIRTUAL) {
            timer = null;
            clock = fabric.virtualTime();
        } else {
            timer = RealTimeScheduler.start("timeline");
            clock = timer;
        }
        this.epoch = workload != null ? workload.epochNanos() : clock.nanoTime();
        for (Event e : events) {
            pending.add(clock.scheduleAt(epoch + e.atNanos(), () -> apply(e)));
        }
    }

    /**
     * @param events   the events, in any order (those at one time applied in the order given)
     * @param fabric   the running fabric
     * @param workload its workload, or null if no event names a flow or a receiver
     * @return the timeline, its events scheduled
     * @throws IllegalArgumentException with one line per event naming something the fabric or the
     *                                  workload does not have
     */
    public static Timeline schedule(List<Event> events, Fabric fabric, Workload workload) {
        List<String> problems = new ArrayList<>();
        for (Event e : events) {
            String bad = check(e.action(), fabric, workload);
            if (bad != null) {
                problems.add(e.describe() + ": " + bad);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.size() == 1 ? problems.get(0)
                : problems.size() + " bad events:\n  " + String.join("\n  ", problems));
        }
        return new Timeline(fabric, workload, events);
    }

    private static String check(Action a, Fabric fabric, Workload workload) {
        try {
            return a.check(fabric, workload);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private void apply(Event e) {
        e.action().apply(fabric, workload);
        applied.add(e.describe());
    }

    /** @return one line per event applied so far, in the order applied ("t=500.000 us: link leaf0--spine1 down") */
    public List<String> applied() {
        synchronized (applied) {
            return List.copyOf(applied);
        }
    }

    /** Cancels the events not yet applied; in real time, stops the timer thread. */
    @Override
    public void close() {
        if (timer != null) {
            timer.execute(() -> pending.forEach(Cancellable::cancel));
            timer.close();
        } else {
            pending.forEach(Cancellable::cancel);
        }
    }

    /** @return {@code "t=500.000 us"} */
    static String stamp(long nanos) {
        return String.format(Locale.ROOT, "t=%.3f us", nanos / 1e3);
    }
}
