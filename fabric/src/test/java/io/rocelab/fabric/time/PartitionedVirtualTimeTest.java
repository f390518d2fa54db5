package io.rocelab.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The windowed run of logical processes: its order, its global events, its lookahead check, its thread independence. */
class PartitionedVirtualTimeTest {

    @Test
    void eachLpRunsItsEventsInTimeOrderAndTheClocksEndWhereAsked() {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(3, 1_000, 2)) {
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            for (int lp = 0; lp < 3; lp++) {
                VirtualTimeScheduler s = p.lp(lp);
                int id = lp;
                for (long t : new long[] {5_000, 100, 2_500}) {
                    s.scheduleAt(t, () -> seen.add(id + "@" + s.nanoTime()));
                }
            }
            long ran = p.global().runUntil(10_000);
            assertEquals(9, ran, "every LP's three events");
            for (int lp = 0; lp < 3; lp++) {
                int id = lp;
                assertEquals(List.of(id + "@100", id + "@2500", id + "@5000"),
                    seen.stream().filter(x -> x.startsWith(id + "@")).toList(), "LP " + lp + " in its time order");
                assertEquals(10_000, p.lp(lp).nanoTime());
            }
            assertEquals(10_000, p.global().nanoTime());
            assertEquals(9, p.global().eventsExecuted(), "the global scheduler counts every LP's events");
        }
    }

    @Test
    void aGlobalEventRunsBeforeTheLpEventsOfItsTimeWithEveryLpItsOwn() {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(2, 1_000, 2)) {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            boolean[] owned = new boolean[3];
            p.lp(0).scheduleAt(3_000, () -> {
                order.add("lp0");
                owned[2] = p.lp(1).inOwnerThread();
            });
            p.lp(1).scheduleAt(3_000, () -> order.add("lp1"));
            p.global().scheduleAt(3_000, () -> {
                order.add("global");
                owned[0] = p.lp(0).inOwnerThread();
                owned[1] = p.lp(1).inOwnerThread();
                assertEquals(3_000, p.lp(1).nanoTime(), "every LP's clock is at the global event's time");
                // a global event may schedule on an LP directly, at its own time
                p.lp(1).execute(() -> order.add("lp1-from-global@" + p.lp(1).nanoTime()));
            });
            p.global().runUntil(5_000);
            assertEquals("global", order.get(0), "the global event first: " + order);
            assertTrue(order.containsAll(List.of("lp0", "lp1", "lp1-from-global@3000")), order.toString());
            assertTrue(owned[0] && owned[1], "a global event owns every LP");
            assertFalse(owned[2], "an LP's event does not own another LP");
        }
    }

    @Test
    void aMessageDueInsideTheWindowItWasSentInIsALookaheadBug() {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(2, 1_000, 1)) {
            PartitionedVirtualTime.Crossing c = PartitionedVirtualTime.crossing(p.lp(0), p.lp(1));
            p.lp(0).scheduleAt(100, () -> c.post(p.lp(0).nanoTime() + 500, () -> { }));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.global().runUntil(10_000));
            assertTrue(e.getMessage().startsWith("lookahead violated: LP 0 posted to LP 1 a message due at 600 ns, "
                + "before 1100 ns"), e.getMessage());
        }
    }

    @Test
    void aTaskScheduledOnAnotherLpRunsThereAtTheWindowsEnd() {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(2, 1_000, 1)) {
            List<Long> at = new ArrayList<>();
            p.lp(0).scheduleAt(200, () -> {
                assertEquals(200, p.lp(1).nanoTime(), "another LP's clock reads as the caller's own");
                p.lp(1).execute(() -> at.add(p.lp(1).nanoTime()));
                p.lp(1).schedule(5_000, () -> at.add(p.lp(1).nanoTime()));
            });
            p.global().runUntil(10_000);
            assertEquals(List.of(1_200L, 5_200L), at, "at the end of the window [200, 1200), and on time when later");
        }
    }

    @Test
    void crossingsExistOnlyBetweenTwoLpsOfOneRun() {
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(2, 1_000, 1);
             PartitionedVirtualTime q = new PartitionedVirtualTime(2, 1_000, 1)) {
            assertNull(PartitionedVirtualTime.crossing(p.lp(0), p.lp(0)));
            assertNull(PartitionedVirtualTime.crossing(p.lp(0), q.lp(1)));
            assertNull(PartitionedVirtualTime.crossing(p.lp(0), new VirtualTimeScheduler()));
            assertNull(PartitionedVirtualTime.crossing(p.global(), p.lp(1)));
            assertEquals(p.lp(1), PartitionedVirtualTime.crossing(p.lp(0), p.lp(1)).to());
        }
    }

    /**
     * Eight LPs ping messages at each other, many due at the same time: the order in which the
     * receivers see them, and everything after, is the same on 1, 2 and 4 threads, and follows (due
     * time, source LP, order of posting).
     */
    @Test
    void theOrderOfMessagesDoesNotDependOnTheThreads() {
        List<String> one = pingPong(1);
        assertEquals(one, pingPong(2));
        assertEquals(one, pingPong(4));
        assertTrue(one.size() > 1_000, "enough traffic to interleave: " + one.size());
        // the first barrier's messages: all due at 1000 ns, sources in LP order, each in posting order
        List<String> firstDue = one.stream().filter(s -> s.contains("@1000 ")).toList();
        assertEquals(List.of("to 1 from 0#0 @1000 ", "to 1 from 0#1 @1000 ", "to 0 from 1#0 @1000 ",
            "to 0 from 1#1 @1000 "), firstDue.subList(0, 4), firstDue.toString());
    }

    private static List<String> pingPong(int threads) {
        int n = 8;
        try (PartitionedVirtualTime p = new PartitionedVirtualTime(n, 1_000, threads)) {
            List<List<String>> logs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                logs.add(new ArrayList<>());
            }
            for (int i = 0; i < n; i++) {
                int from = i;
                p.lp(i).scheduleAt(0, () -> {
                    for (int j = 0; j < 2; j++) {
                        send(p, logs, from, from ^ 1, j, 1_000);
                    }
                });
            }
            p.global().runUntil(200_000);
            List<String> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.addAll(logs.get(i));
            }
            // the first LP pair's log in the order LP 1 and LP 0 saw them, then the rest
            List<String> merged = new ArrayList<>(logs.get(1));
            merged.addAll(logs.get(0));
            for (int i = 2; i < n; i++) {
                merged.addAll(logs.get(i));
            }
            return merged;
        }
    }

    /** From LP {@code from}: a message to LP {@code to}; on arrival it answers to a next LP, and so on. */
    private static void send(PartitionedVirtualTime p, List<List<String>> logs, int from, int to, int seq, long delay) {
        VirtualTimeScheduler src = p.lp(from);
        long due = src.nanoTime() + delay;
        if (due > 150_000) {
            return;
        }
        PartitionedVirtualTime.Crossing c = PartitionedVirtualTime.crossing(src, p.lp(to));
        String tag = "to " + to + " from " + from + "#" + seq + " @" + due + " ";
        c.post(due, () -> p.lp(to).scheduleAt(due, () -> {
            logs.get(to).add(tag);
            // the next hop depends on what this LP has seen so far: any misorder shows up downstream
            int next = (to + 1 + logs.get(to).size()) % p.lpCount();
            if (next == to) {
                next = (next + 1) % p.lpCount();
            }
            send(p, logs, to, next, logs.get(to).size(), 1_000 + (logs.get(to).size() % 3) * 250L);
        }));
    }
}
