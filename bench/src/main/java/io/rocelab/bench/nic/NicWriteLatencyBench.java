package io.rocelab.bench.nic;

import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.WorkCompletion;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * In-process 8-byte RC RDMA WRITE ping-pong latency, as {@code ib_write_lat -s 8} measures it
 * (issue 3): A writes the iteration number into B's region; B, polling its region, sees it and
 * writes it back into A's; A, polling its own, sees it: one round trip. Latency is half a round
 * trip, as perftest reports for write_lat. Median, p99 and p99.9 over {@code bench.iters}
 * iterations after {@code bench.warmupIters}.
 *
 * <p>Threads: the two NICs run on their own real-time schedulers (2 threads; {@code bench.loops=1}
 * puts both on one), {@code bench.nicIdle=park} (default: Netty event loops that sleep in their
 * selector when idle) or {@code spin}/{@code yield}/{@code backoff} (busy-polling schedulers).
 * {@code bench.appThreads=1} (the default on a small machine) plays both sides on one application
 * thread; {@code bench.appThreads=2} gives each side its own polling thread like two perftest
 * processes. A polling thread yields between polls after {@value #SPINS_BEFORE_YIELD} unanswered
 * ones, so that it cannot starve the NIC threads when there are more threads than cores.
 *
 * <p>Printed beside it, from the same run: the hand-off floor, the same ping-pong through two bare
 * schedulers of the same runtime with no NIC (see {@link #handoffFloor}).
 *
 * <pre>
 * java -Dio.netty.leakDetection.level=disabled -cp bench/target/benchmarks.jar \
 *     io.rocelab.bench.nic.NicWriteLatencyBench
 * </pre>
 *
 * Other properties: {@code bench.inline} (true: the 8 bytes are posted inline, perftest's default
 * for small messages); {@code bench.verb} {@code write} (the default), {@code send} (A sends to B's
 * posted receive, B waits for its completion and sends back: {@code ib_send_lat}'s ping-pong) or
 * {@code read} (A reads B's 8 bytes, then B reads A's; half an iteration is one READ's round trip,
 * what {@code ib_read_lat} reports), both with one application thread.
 */
public final class NicWriteLatencyBench {
    static final double GOAL_MEDIAN_US = 3.0;
    static final int SPINS_BEFORE_YIELD = 20_000;
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private NicWriteLatencyBench() {
    }

    /** One side: its QP and CQ, the 8-byte region the peer writes into, the 8-byte source it sends from. */
    private static final class Side {
        final QueuePair qp;
        final CompletionQueue cq;
        final byte[] inbox = new byte[8];
        final byte[] outbox = new byte[8];
        final MemoryRegion mrIn;
        final MemoryRegion mrOut;
        MemoryRegion peerIn;
        final boolean inline;
        final List<WorkCompletion> wcs = new ArrayList<>(16);

        Side(RealTimeNicPair p, boolean a, boolean inline) {
            this.qp = a ? p.qpA : p.qpB;
            this.cq = a ? p.cqA : p.cqB;
            this.inline = inline;
            var pd = a ? p.pdA : p.pdB;
            mrIn = pd.registerMr(inbox, a ? 0x10000 : 0x20000, AccessFlags.ALL);
            mrOut = pd.registerMr(outbox, a ? 0x30000 : 0x40000, AccessFlags.LOCAL_WRITE);
        }

        /** Writes {@code value} into the peer's inbox. */
        void send(long value) {
            LONG_LE.set(outbox, 0, value);
            qp.postSend(SendWr.write(value, Sge.of(mrOut), peerIn.addr(), peerIn.rkey()).inline(inline));
            drainCq();
        }

        boolean arrived(long value) {
            return (long) LONG_LE.getAcquire(inbox, 0) == value;
        }

        /** RECV completions seen so far (bench.verb=send). */
        long recvs;
        /** Send-side completions seen so far (bench.verb=read: the READs that came back). */
        long sendsDone;

        /** bench.verb=send: sends {@code value} to the peer's posted receive. */
        void sendMessage(long value) {
            LONG_LE.set(outbox, 0, value);
            qp.postSend(SendWr.send(value, Sge.of(mrOut)).inline(inline));
            poll();
        }

        /** bench.verb=send: waits for the peer's {@code n}th message, and posts a receive in its place. */
        void awaitRecv(long n) {
            spinUntil(() -> {
                poll();
                return recvs >= n;
            });
            qp.postRecv(new io.rocelab.nic.RecvWr(n, Sge.of(mrIn)));
        }

        /** bench.verb=read: reads the peer's 8 bytes and waits for them. */
        void read(long value) {
            long want = sendsDone + 1;
            qp.postSend(SendWr.read(value, Sge.of(mrOut), peerIn.addr(), peerIn.rkey()));
            spinUntil(() -> {
                poll();
                return sendsDone >= want;
            });
        }

        private void poll() {
            wcs.clear();
            cq.poll(16, wcs);
            for (WorkCompletion wc : wcs) {
                if (!wc.isSuccess()) {
                    System.err.println("completion failed: " + wc);
                    System.exit(1);
                }
                if (wc.opcode() == io.rocelab.nic.WcOpcode.RECV) {
                    recvs++;
                } else {
                    sendsDone++;
                }
            }
        }

        void await(long value) {
            spinUntil(() -> arrived(value));
        }

        void drainCq() {
            wcs.clear();
            cq.poll(16, wcs);
            for (WorkCompletion wc : wcs) {
                if (!wc.isSuccess()) {
                    System.err.println("WRITE failed: " + wc);
                    System.exit(1);
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int iters = (int) RealTimeNicPair.longProperty("bench.iters", 20_000);
        int warmup = (int) RealTimeNicPair.longProperty("bench.warmupIters", 20_000);
        int appThreads = (int) RealTimeNicPair.longProperty("bench.appThreads", 1);
        int loops = (int) RealTimeNicPair.longProperty("bench.loops", 2);
        String idle = RealTimeNicPair.nicIdle();
        boolean inline = Boolean.parseBoolean(System.getProperty("bench.inline", "true"));
        String verb = System.getProperty("bench.verb", "write");
        if (!java.util.Set.of("write", "send", "read").contains(verb)) {
            throw new IllegalArgumentException("bench.verb must be write, send or read: " + verb);
        }
        if (appThreads != 1 && appThreads != 2) {
            throw new IllegalArgumentException("bench.appThreads must be 1 or 2: " + appThreads);
        }
        System.out.printf(Locale.ROOT, "NicWriteLatencyBench: RC %s 8 B ping-pong, MTU 4096, %s, %d iterations"
                        + " after %d warm-up; %s%n", "write".equals(verb) ? "RDMA WRITE" : "send".equals(verb) ? "SEND"
                        : "RDMA READ (half an iteration: one READ's round trip)", inline ? "inline" : "not inline",
                iters, warmup,
                RealTimeNicPair.machine());
        System.out.printf(Locale.ROOT, "threads: %d NIC thread%s (%s) + %d application thread%s"
                        + " polling memory = %d threads on %d CPUs%n", loops, loops == 1 ? " for both NICs" : "s",
                "park".equals(idle) ? "sleeping Netty event loops" : "busy-poll, idle strategy " + idle, appThreads,
                appThreads == 1 ? " playing both sides" : "s (one per side)", loops + appThreads,
                Runtime.getRuntime().availableProcessors());
        long[] floor = handoffFloor(warmup, iters, idle, loops);
        System.out.printf(Locale.ROOT, "hand-off floor (half round trip, us): median %.2f  p99 %.2f  p99.9 %.2f%n",
                half(floor, 0.5), half(floor, 0.99), half(floor, 0.999));
        long[] rtt = new long[iters];
        try (RealTimeNicPair p = new RealTimeNicPair(4096, 1024, new QpCaps(1024, 1024, 1, 1, 64, false), loops)) {
            Side a = new Side(p, true, inline);
            Side b = new Side(p, false, inline);
            a.peerIn = b.mrIn;
            b.peerIn = a.mrIn;
            int total = warmup + iters;
            if (!"write".equals(verb)) {
                if (appThreads != 1) {
                    throw new IllegalArgumentException("bench.verb=" + verb + " runs with bench.appThreads=1");
                }
                for (int k = 0; k < 64 && "send".equals(verb); k++) {
                    a.qp.postRecv(new io.rocelab.nic.RecvWr(-1 - k, Sge.of(a.mrIn)));
                    b.qp.postRecv(new io.rocelab.nic.RecvWr(-1 - k, Sge.of(b.mrIn)));
                }
                for (int i = 1; i <= total; i++) {
                    long t0 = System.nanoTime();
                    if ("send".equals(verb)) {
                        a.sendMessage(i);
                        b.awaitRecv(i);
                        b.sendMessage(i);
                        a.awaitRecv(i);
                    } else {
                        a.read(i); // two READs: half the iteration is one READ's round trip
                        b.read(i);
                    }
                    long t1 = System.nanoTime();
                    if (i > warmup) {
                        rtt[i - warmup - 1] = t1 - t0;
                    }
                }
            } else if (appThreads == 1) {
                for (int i = 1; i <= total; i++) {
                    long t0 = System.nanoTime();
                    a.send(i);
                    b.await(i);
                    b.send(i);
                    a.await(i);
                    long t1 = System.nanoTime();
                    if (i > warmup) {
                        rtt[i - warmup - 1] = t1 - t0;
                    }
                }
            } else {
                Thread ponger = new Thread(() -> {
                    for (int i = 1; i <= total; i++) {
                        b.await(i);
                        b.send(i);
                    }
                }, "pong-b");
                ponger.setDaemon(true);
                ponger.start();
                for (int i = 1; i <= total; i++) {
                    long t0 = System.nanoTime();
                    a.send(i);
                    a.await(i);
                    long t1 = System.nanoTime();
                    if (i > warmup) {
                        rtt[i - warmup - 1] = t1 - t0;
                    }
                }
                ponger.join(10_000);
            }
            System.out.print("transport counters:\n" + p.transportCounters());
        }
        Arrays.sort(rtt);
        double median = half(rtt, 0.5);
        double p99 = half(rtt, 0.99);
        double p999 = half(rtt, 0.999);
        System.out.println();
        System.out.printf(Locale.ROOT, "latency (half round trip, us): min %.2f  median %.2f  p99 %.2f  p99.9 %.2f"
                        + "  max %.2f%n", rtt[0] / 2e3, median, p99, p999, rtt[rtt.length - 1] / 2e3);
        System.out.printf(Locale.ROOT, "median %.2f us (goal <= %.1f us) %s; hand-off floor median %.2f us"
                        + " (NIC / floor = %.1f)%n", median, GOAL_MEDIAN_US, median <= GOAL_MEDIAN_US ? "MET" : "NOT MET",
                half(floor, 0.5), median / half(floor, 0.5));
    }

    /**
     * Busy-polls {@code done}; after {@link #SPINS_BEFORE_YIELD} polls it also yields between polls,
     * so that with more spinning threads than cores the NIC loops still get to run.
     */
    static void spinUntil(java.util.function.BooleanSupplier done) {
        int spins = 0;
        while (!done.getAsBoolean()) {
            if (++spins > SPINS_BEFORE_YIELD) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * The floor of the threading model: the same four hand-offs a round trip needs at the least
     * (application → loop A → loop B → application, then application → loop B → loop A →
     * application), each a bare {@code execute} of a task that does nothing but pass a counter on,
     * on schedulers of the same runtime (and the same number of them) as the NICs.
     */
    private static long[] handoffFloor(int warmup, int iters, String idle, int loops) {
        long[] out = new long[iters];
        io.rocelab.fabric.time.Scheduler la = RealTimeNicPair.startScheduler("floor-a", idle);
        io.rocelab.fabric.time.Scheduler lb = loops == 2 ? RealTimeNicPair.startScheduler("floor-b", idle) : la;
        try {
            java.util.concurrent.atomic.AtomicLong seen = new java.util.concurrent.atomic.AtomicLong();
            for (int i = 1; i <= warmup + iters; i++) {
                final long v1 = 2L * i - 1;
                final long v2 = 2L * i;
                long t0 = System.nanoTime();
                la.execute(() -> lb.execute(() -> seen.set(v1)));
                spinUntil(() -> seen.get() == v1);
                lb.execute(() -> la.execute(() -> seen.set(v2)));
                spinUntil(() -> seen.get() == v2);
                long t1 = System.nanoTime();
                if (i > warmup) {
                    out[i - warmup - 1] = t1 - t0;
                }
            }
        } finally {
            RealTimeNicPair.close(la);
            if (lb != la) {
                RealTimeNicPair.close(lb);
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** Half the round trip at quantile {@code q} of the sorted round trips, in µs (nearest rank). */
    private static double half(long[] sorted, double q) {
        int idx = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 2e3;
    }
}
