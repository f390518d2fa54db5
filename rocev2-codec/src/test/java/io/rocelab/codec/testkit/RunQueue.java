package io.rocelab.codec.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What Linux gave this process's threads: per thread, the time it ran on a CPU and the time it was
 * runnable but waited for one on a run queue ({@code /proc/self/task/TID/schedstat}, the kernel's
 * {@code sched_info}: run time, run-queue wait, time slices). Why: a test whose claim is about
 * wall-clock time (a timer's punctuality, a rate) judges the code against the time the machine
 * gave its thread, so that other processes taking the cores make the run slower, not red: a timer
 * that fires late because its thread waited for a core is the machine; one that fires late while
 * its thread slept is the code. Where the file cannot be read (not Linux, schedstat off) the wait
 * reads 0, and the claims are judged against wall-clock time alone.
 */
public final class RunQueue {
    private static final Path SELF = Path.of("/proc/thread-self/schedstat");
    private static final Path TASKS = Path.of("/proc/self/task");

    /** A thread's counters, in nanoseconds since it started. */
    public record Times(long onCpuNanos, long waitedNanos) {
        /** @return this minus {@code earlier} (the same thread, read before) */
        public Times minus(Times earlier) {
            return new Times(onCpuNanos - earlier.onCpuNanos, waitedNanos - earlier.waitedNanos);
        }
    }

    private static final Times NONE = new Times(0, 0);

    private RunQueue() {
    }

    /** @return the calling thread's counters (zeros where they cannot be read) */
    public static Times ofThisThread() {
        return read(SELF);
    }

    /**
     * @param namePrefix how the threads' names start (Linux keeps their first 15 characters), "" for all
     * @return those threads of this process, by Linux task id, with their counters
     */
    public static Map<Long, Times> threads(String namePrefix) {
        Map<Long, Times> all = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                if (nameOf(t).startsWith(namePrefix)) {
                    all.put(Long.parseLong(t.getFileName().toString()), read(t.resolve("schedstat")));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no threads to tell about
        }
        return all;
    }

    /**
     * @return the counters, between the two readings, of the thread that ran the longest between
     *     them (a thread started since {@code before} counts from zero): the thread a run kept busy
     */
    public static Times busiest(Map<Long, Times> before, Map<Long, Times> after) {
        Times most = NONE;
        for (Map.Entry<Long, Times> e : after.entrySet()) {
            Times d = e.getValue().minus(before.getOrDefault(e.getKey(), NONE));
            if (d.onCpuNanos() > most.onCpuNanos()) {
                most = d;
            }
        }
        return most;
    }

    /**
     * Watches the threads named {@code namePrefix} until {@link Watch#busiest()}: for threads that
     * start and end meanwhile (a tool's event loop), whose counters go with them.
     *
     * @return the watch, reading every 20 ms on a thread of its own
     */
    public static Watch watch(String namePrefix) {
        return new Watch(namePrefix);
    }

    /** The threads of a name, read every 20 ms; each reading is kept with its time. */
    public static final class Watch {
        private static final long PERIOD_MILLIS = 20;
        private record Reading(long atNanos, Map<Long, Times> threads) {
        }

        private final String namePrefix;
        private final java.util.List<Reading> readings = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread reader;
        private volatile boolean stop;

        private Watch(String namePrefix) {
            this.namePrefix = namePrefix;
            readNow();
            this.reader = new Thread(this::read, "run-queue-watch");
            reader.setDaemon(true);
            reader.start();
        }

        private void readNow() {
            long at = System.nanoTime();
            readings.add(new Reading(at, threads(namePrefix)));
        }

        private void read() {
            while (!stop) {
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                readNow();
            }
        }

        /** Stops watching (idempotent). */
        public void stop() {
            if (stop) {
                return;
            }
            stop = true;
            reader.interrupt();
            try {
                reader.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            readNow();
        }

        /**
         * Stops watching.
         *
         * @return what the busiest of the threads got since the watch began (see {@link RunQueue#busiest})
         */
        public Times busiest() {
            return busiestBetween(Long.MIN_VALUE, Long.MAX_VALUE);
        }

        /**
         * Stops watching.
         *
         * @return what the thread that ran the longest over the whole watch got between two times
         *     ({@code System.nanoTime()}), to the nearest reading before each (a thread not yet
         *     started at {@code fromNanos} counts from zero)
         */
        public Times busiestBetween(long fromNanos, long toNanos) {
            stop();
            Map<Long, Times> all = new HashMap<>();
            readings.forEach(r -> all.putAll(r.threads()));
            Map<Long, Times> start = readings.get(0).threads();
            long busiest = -1;
            long most = -1;
            for (Map.Entry<Long, Times> e : all.entrySet()) {
                long ran = e.getValue().minus(start.getOrDefault(e.getKey(), NONE)).onCpuNanos();
                if (ran > most) {
                    most = ran;
                    busiest = e.getKey();
                }
            }
            return at(busiest, toNanos).minus(at(busiest, fromNanos));
        }

        /** The thread's counters at the last reading at or before {@code atNanos} that saw it (zeros before). */
        private Times at(long tid, long atNanos) {
            Times seen = NONE;
            for (Reading r : readings) {
                if (r.atNanos() > atNanos) {
                    break;
                }
                seen = r.threads().getOrDefault(tid, seen);
            }
            return seen;
        }
    }

    private static String nameOf(Path task) {
        try {
            return Files.readString(task.resolve("comm"));
        } catch (IOException e) {
            return ""; // the thread ended meanwhile
        }
    }

    private static Times read(Path schedstat) {
        try {
            String[] f = Files.readString(schedstat).trim().split("\\s+");
            return new Times(Long.parseLong(f[0]), Long.parseLong(f[1]));
        } catch (IOException | RuntimeException e) {
            return NONE; // the thread ended meanwhile, or no schedstat here
        }
    }
}
