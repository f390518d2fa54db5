package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** In-process: the latency loops on the NICs' thread, polling ({@code --busy-poll}) or sleeping (the default). */
@Timeout(120)
class OwnerThreadLatencyTest {

    /** A run of {@code steps} steps, each waiting once, that notes the threads it ran on. */
    private static final class CountingRun implements OwnerThreadLatency.Run {
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        final int steps;
        final RuntimeException failAt;
        int done;
        boolean waited;

        CountingRun(int steps, RuntimeException failAt) {
            this.steps = steps;
            this.failAt = failAt;
        }

        @Override
        public LatencySteps.Blocked step() {
            threads.add(Thread.currentThread());
            if (!waited) {
                waited = true; // the peer's answer is not there yet
                return LatencySteps.Blocked.MEMORY;
            }
            waited = false;
            if (failAt != null && done == steps / 2) {
                throw failAt;
            }
            return ++done == steps ? LatencySteps.Blocked.DONE : LatencySteps.Blocked.MEMORY;
        }

        @Override
        public boolean progressed() {
            return !waited;
        }

        @Override
        public long result() {
            return done;
        }
    }

    @Test
    void eachRunIsSteppedOnTheSchedulersThreadAndTheCallerGetsItsResult() throws Exception {
        try (BusyPollScheduler s = BusyPollScheduler.start("otl-test", BusyPollScheduler.idleStrategy("yield"))) {
            OwnerThreadLatency otl = new OwnerThreadLatency(s, true);
            for (int runs = 0; runs < 3; runs++) { // one drain serves run after run (-a: a run per size)
                CountingRun r = new CountingRun(1000, null);
                assertEquals(1000, otl.run(r));
                assertEquals(Set.of(s.thread()), r.threads);
            }
        }
    }

    @Test
    void onASleepingLoopEachStepQueuesTheNextUntilTheRunEnds() throws Exception {
        try (RealTimeScheduler s = RealTimeScheduler.start("otl-test")) {
            OwnerThreadLatency otl = new OwnerThreadLatency(s, false);
            for (int runs = 0; runs < 3; runs++) {
                CountingRun r = new CountingRun(1000, null);
                assertEquals(1000, otl.run(r));
                assertEquals(1, r.threads.size());
                Thread loop = r.threads.iterator().next();
                assertTrue(Orders.onThread(s, loop), "stepped on the loop's thread");
            }
            IllegalStateException bad = new IllegalStateException("Completion with error at server");
            assertSame(bad, assertThrows(IllegalStateException.class, () -> otl.run(new CountingRun(10, bad))));
        }
    }

    /** Whether {@code t} is {@code s}'s owner thread (asked on that thread). */
    private static final class Orders {
        static boolean onThread(RealTimeScheduler s, Thread t) throws Exception {
            java.util.concurrent.CompletableFuture<Boolean> f = new java.util.concurrent.CompletableFuture<>();
            s.execute(() -> f.complete(Thread.currentThread() == t && s.inOwnerThread()));
            return f.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void whatEndsARunOnTheNicThreadIsThrownToTheCaller() throws Exception {
        try (BusyPollScheduler s = BusyPollScheduler.start("otl-test", BusyPollScheduler.idleStrategy("yield"))) {
            OwnerThreadLatency otl = new OwnerThreadLatency(s, true);
            IllegalStateException bad = new IllegalStateException("Completion with error at client");
            assertSame(bad, assertThrows(IllegalStateException.class, () -> otl.run(new CountingRun(100, bad))));
            assertEquals(100, otl.run(new CountingRun(100, null)), "the next run still runs");
        }
    }

    private record Tool(int status, String out, String err) {
    }

    private static Tool tool(TestKind kind, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = NicTool.run(kind, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Tool(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyLatencyToolRunsItsIterationsWithBusyPollAndWithout() {
        for (int i = 0; i < 8; i++) {
            TestKind kind = new TestKind[] {TestKind.WRITE_LAT, TestKind.SEND_LAT, TestKind.READ_LAT,
                TestKind.ATOMIC_LAT}[i % 4];
            boolean busy = i < 4;
            Tool r = busy ? tool(kind, "--in-process", "--busy-poll", "-s", "8", "-n", "700")
                : tool(kind, "--in-process", "-s", "8", "-n", "700");
            assertEquals(0, r.status(), kind + (busy ? " --busy-poll: " : ": ") + r.err() + r.out());
            java.util.List<NicSessions.LatLine> lines = NicSessions.LatLine.all(r.out());
            assertEquals(1, lines.size(), r.out());
            assertEquals(700, lines.get(0).iterations(), r.out());
            double tMin = lines.get(0).stats()[0];
            double tTypical = lines.get(0).stats()[2];
            assertTrue(tMin > 0 && tMin <= tTypical, kind + ": " + r.out());
        }
    }

    @Test
    void aTimedRunEndsAtItsDeadlineWithBusyPollAndWithout() {
        for (TestKind kind : new TestKind[] {TestKind.WRITE_LAT, TestKind.SEND_LAT, TestKind.READ_LAT}) {
            long start = System.nanoTime();
            Tool r = kind == TestKind.SEND_LAT ? tool(kind, "--in-process", "-D", "1")
                : tool(kind, "--in-process", "--busy-poll", "-D", "1");
            assertEquals(0, r.status(), kind + ": " + r.err() + r.out());
            assertTrue(r.out().contains("t_avg[usec]"), r.out());
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^ 2\\s+(\\d+)\\s+[0-9.]+\\s+[0-9.]+\\s*$")
                .matcher(r.out());
            assertTrue(m.find(), r.out());
            assertTrue(Long.parseLong(m.group(1)) > 0, r.out());
            assertTrue(System.nanoTime() - start < 60_000_000_000L, "the run ended");
        }
    }
}
