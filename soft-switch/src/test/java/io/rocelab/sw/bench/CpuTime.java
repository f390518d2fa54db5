package io.rocelab.sw.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the calling thread. On a machine shared with other work a thread's wall-clock rate
 * swings with the time slices it gets; its CPU time counts only the time it ran.
 */
final class CpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTime() {
    }

    /** @return nanoseconds of CPU time the calling thread has used */
    static long ofThisThread() {
        return THREADS.getCurrentThreadCpuTime();
    }
}
