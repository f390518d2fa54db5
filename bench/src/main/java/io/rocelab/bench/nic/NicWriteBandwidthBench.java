package io.rocelab.bench.nic;

import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.WorkCompletion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * In-process RC RDMA WRITE bandwidth (issue 3, docs/design.md §9), printed beside its floor from the same
 * run:
 *
 * <ol>
 * <li>the floor ({@link WriteDataPathFloor}): the copies and CRCs of the data path and nothing else,
 *     one thread, measured before and after the NIC run; the higher of the two is the floor;</li>
 * <li>the NIC: two {@link io.rocelab.nic.SoftNic}s on their own real-time event loops joined by an
 *     unlimited in-process link, one RC QP, path MTU 4096; the main thread keeps {@code qd} 64 KB
 *     WRITEs posted (as {@code ib_write_bw -s 65536 -t 128}) and polls the CQ; payload Gb/s over the
 *     measurement window after a warm-up.</li>
 * </ol>
 *
 * <pre>
 * java -Dio.netty.leakDetection.level=disabled -cp bench/target/benchmarks.jar \
 *     io.rocelab.bench.nic.NicWriteBandwidthBench
 * </pre>
 *
 * Properties: {@code bench.seconds} (10), {@code bench.warmupSeconds} (5), {@code bench.floorSeconds}
 * (5), {@code bench.qd} (128), {@code bench.size} (65536), {@code bench.mtu} (4096),
 * {@code bench.loops} (2; 1 puts both NICs on one event loop, a diagnostic without cross-thread
 * hand-offs), {@code bench.idle} ({@code park}: when the CQ is empty and the queue full the main thread parks
 * {@code bench.parkMicros} (20) µs, leaving the cores to the NIC loops; {@code spin}: busy-polls as perftest does;
 * {@code notify}: arms the CQ with completion moderation and sleeps until it holds {@code bench.notifyCount}
 * (qd / 4) completions, at most 1 ms, so that the NIC thread wakes it once per that many messages).
 * Exit status 0 whatever the numbers are; 1 only if a WRITE fails or data arrives wrong.
 */
public final class NicWriteBandwidthBench {
    static final double GOAL_RATIO = 0.5;

    private NicWriteBandwidthBench() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = RealTimeNicPair.longProperty("bench.seconds", 10);
        long warmupSeconds = RealTimeNicPair.longProperty("bench.warmupSeconds", 5);
        long floorSeconds = RealTimeNicPair.longProperty("bench.floorSeconds", 5);
        int qd = (int) RealTimeNicPair.longProperty("bench.qd", 128);
        int size = (int) RealTimeNicPair.longProperty("bench.size", 65536);
        int mtu = (int) RealTimeNicPair.longProperty("bench.mtu", 4096);
        String appIdle = System.getProperty("bench.idle", "park");
        if (!appIdle.equals("park") && !appIdle.equals("spin") && !appIdle.equals("notify")) {
            throw new IllegalArgumentException("bench.idle must be park, spin or notify: " + appIdle);
        }
        boolean spin = appIdle.equals("spin");
        // notify: sleep until the CQ holds this many completions (CQ moderation), at most 1 ms
        int notifyCount = appIdle.equals("notify") ? (int) RealTimeNicPair.longProperty("bench.notifyCount", qd / 4) : 0;
        long parkNanos = RealTimeNicPair.longProperty("bench.parkMicros", 20) * 1000;
        int loops = (int) RealTimeNicPair.longProperty("bench.loops", 2);

        String nicIdle = RealTimeNicPair.nicIdle();
        System.out.printf(Locale.ROOT, "NicWriteBandwidthBench: RC RDMA WRITE %d B, MTU %d, 1 QP, qd %d, %d s after %d s"
                + " warm-up; NICs on %d %s thread%s, main thread %s; %s%n", size, mtu, qd, seconds, warmupSeconds, loops,
                "park".equals(nicIdle) ? "sleeping event-loop" : "busy-poll (" + nicIdle + ")", loops == 1 ? "" : "s",
                spin ? "spinning" : notifyCount > 0 ? "sleeping until " + notifyCount + " completions (CQ moderation)"
                        : "parking " + parkNanos / 1000 + " us when idle", RealTimeNicPair.machine());
        byte[] src = new byte[size];
        new Random(7).nextBytes(src);

        // (a) floor, before
        double floorBefore;
        double floorOneCrcBefore;
        try (WriteDataPathFloor floor = new WriteDataPathFloor(src, new byte[size], mtu)) {
            floor.run(floorSeconds * 1_000_000_000L / 2, true); // warm-up
            floorBefore = floor.run(floorSeconds * 1_000_000_000L, true);
            floorOneCrcBefore = floor.run(floorSeconds * 1_000_000_000L / 2, false);
            check(floor.badIcrc == 0, "floor: bad ICRC");
        }
        System.out.printf(Locale.ROOT, "floor (before): %.1f Gb/s (copy + ICRC + ICRC check + copy), %.1f Gb/s"
                + " without the receive check%n", floorBefore, floorOneCrcBefore);

        // (b) the NIC
        Result nic = runNic(src, qd, mtu, warmupSeconds, seconds, spin, parkNanos, notifyCount, loops);

        // (a) floor, after (the machine may have got busier or quieter meanwhile)
        double floorAfter;
        double floorOneCrcAfter;
        try (WriteDataPathFloor floor = new WriteDataPathFloor(src, new byte[size], mtu)) {
            floor.run(floorSeconds * 1_000_000_000L / 4, true);
            floorAfter = floor.run(floorSeconds * 1_000_000_000L, true);
            floorOneCrcAfter = floor.run(floorSeconds * 1_000_000_000L / 2, false);
            check(floor.badIcrc == 0, "floor: bad ICRC");
        }
        System.out.printf(Locale.ROOT, "floor (after):  %.1f Gb/s (copy + ICRC + ICRC check + copy), %.1f Gb/s"
                + " without the receive check%n", floorAfter, floorOneCrcAfter);

        double floorGbps = Math.max(floorBefore, floorAfter);
        double floorOneCrc = Math.max(floorOneCrcBefore, floorOneCrcAfter);
        double ratio = nic.gbps / floorGbps;
        System.out.println();
        System.out.printf(Locale.ROOT, "FLOOR  %.1f Gb/s   (one thread: copy in, ICRC, ICRC check, copy out; higher of"
                + " before/after)%n", floorGbps);
        System.out.printf(Locale.ROOT, "NIC    %.2f Gb/s   (%d messages of %d B in %.2f s; %.2f cores busy: nic-a %.2f,"
                        + " nic-b %.2f, main %.2f)%n", nic.gbps, nic.messages, size, nic.seconds, nic.cores,
                nic.coresA, nic.coresB, nic.coresMain);
        System.out.printf(Locale.ROOT, "NIC / floor = %.2f (goal >= %.1f) %s%n", ratio, GOAL_RATIO,
                ratio >= GOAL_RATIO ? "MET" : "NOT MET");
        System.out.printf(Locale.ROOT, "NIC / floor without the receive ICRC check (%.1f Gb/s) = %.2f%n", floorOneCrc,
                nic.gbps / floorOneCrc);
        if (nic.cores > 0) {
            System.out.printf(Locale.ROOT, "NIC per busy core = %.2f Gb/s, i.e. %.2f x the one-core floor%n",
                    nic.gbps / nic.cores, nic.gbps / nic.cores / floorGbps);
        }
        double nicCores = nic.coresA + nic.coresB;
        if (nicCores > 0) {
            // what the NIC threads did with the CPU they got; a busy-poll thread's time includes its idle turns
            System.out.printf(Locale.ROOT, "NIC per NIC-thread core = %.2f Gb/s, i.e. %.2f x the one-core floor%n",
                    nic.gbps / nicCores, nic.gbps / nicCores / floorGbps);
        }
    }

    record Result(double gbps, long messages, double seconds, double cores, double coresA, double coresB,
                  double coresMain) {
    }

    private static Result runNic(byte[] src, int qd, int mtu, long warmupSeconds, long seconds, boolean spin,
                                 long parkNanos, int notifyCount, int loops)
            throws Exception {
        int size = src.length;
        byte[] remote = new byte[size];
        // a CQ deep enough for every signaled WR in flight; each WR is signaled (one completion per message)
        try (RealTimeNicPair p = new RealTimeNicPair(mtu, Math.max(1024, 4 * qd),
                new QpCaps(Math.max(qd, 1024), 1024, 1, 1, 0, false), loops);
             HiccupMeter hiccups = new HiccupMeter()) {
            MemoryRegion mrSrc = p.pdA.registerMr(src, 0x10000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrRemote = p.pdB.registerMr(remote, 0x80000, AccessFlags.ALL);
            List<WorkCompletion> wcs = new ArrayList<>(qd);
            if (notifyCount > 0) {
                Thread me = Thread.currentThread();
                p.cqA.moderate(notifyCount);
                p.cqA.onNotify(() -> LockSupport.unpark(me));
            }
            int outstanding = 0;
            long completed = 0;
            long wrId = 0;
            long t0 = System.nanoTime();
            long warmEnd = t0 + warmupSeconds * 1_000_000_000L;
            long end = warmEnd + seconds * 1_000_000_000L;
            boolean measuring = false;
            long mStart = 0;
            long mCompleted = 0;
            long cpuStart = 0;
            long cpuA = 0;
            long cpuB = 0;
            long cpuMain = 0;
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long now;
            while (true) {
                while (outstanding < qd) {
                    SendWr wr = SendWr.write(++wrId, Sge.of(mrSrc), mrRemote.addr(), mrRemote.rkey()).signaled(true);
                    p.qpA.postSend(wr);
                    outstanding++;
                }
                wcs.clear();
                int n = p.cqA.poll(qd, wcs);
                for (int i = 0; i < n; i++) {
                    WorkCompletion wc = wcs.get(i);
                    if (!wc.isSuccess()) {
                        System.err.println("WRITE failed: " + wc + "\n" + p.transportCounters());
                        System.exit(1);
                    }
                }
                outstanding -= n;
                completed += n;
                now = System.nanoTime();
                if (!measuring && now >= warmEnd) {
                    measuring = true;
                    mStart = now;
                    mCompleted = completed;
                    cpuStart = RealTimeNicPair.processCpuNanos();
                    cpuA = RealTimeNicPair.threadCpuNanos(RealTimeNicPair.THREAD_A);
                    cpuB = RealTimeNicPair.threadCpuNanos(RealTimeNicPair.THREAD_B);
                    cpuMain = mx.getCurrentThreadCpuTime();
                }
                if (now >= end) {
                    break;
                }
                if (n == 0) {
                    if (spin) {
                        Thread.onSpinWait();
                    } else if (notifyCount > 0) {
                        p.cqA.requestNotify(false);
                        if (p.cqA.size() < notifyCount) {
                            LockSupport.parkNanos(1_000_000);
                        }
                    } else {
                        LockSupport.parkNanos(parkNanos);
                    }
                }
            }
            double secs = (now - mStart) / 1e9;
            long msgs = completed - mCompleted;
            double cores = (RealTimeNicPair.processCpuNanos() - cpuStart) / 1e9 / secs;
            double coresA = (RealTimeNicPair.threadCpuNanos(RealTimeNicPair.THREAD_A) - cpuA) / 1e9 / secs;
            double coresB = (RealTimeNicPair.threadCpuNanos(RealTimeNicPair.THREAD_B) - cpuB) / 1e9 / secs;
            double coresMain = (mx.getCurrentThreadCpuTime() - cpuMain) / 1e9 / secs;
            // drain what is still in flight, then check the bytes arrived intact
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (outstanding > 0 && System.nanoTime() < deadline) {
                wcs.clear();
                outstanding -= p.cqA.poll(qd, wcs);
                LockSupport.parkNanos(100_000);
            }
            check(outstanding == 0, "WRITEs still outstanding after 10 s");
            check(java.util.Arrays.equals(src, remote), "remote region differs from the source");
            System.out.printf(Locale.ROOT, "NIC run: %d WRITEs completed in total; transport counters:%n%s", completed,
                    p.transportCounters());
            // over the whole NIC run, warm-up included, the same span as the transport counters above
            System.out.println("machine hiccups during the NIC run: " + hiccups.summary());
            return new Result(msgs * (double) size * 8 / (secs * 1e9), msgs, secs, cores, coresA, coresB, coresMain);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("NicWriteBandwidthBench: " + what);
            System.exit(1);
        }
    }
}
