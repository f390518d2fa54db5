package io.rocelab.bench.nic;

import io.netty.buffer.PooledByteBufAllocator;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SoftNic;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Two {@link SoftNic}s in one JVM, each on its own real-time scheduler (one thread), joined by an
 * {@link InProcessLink} with no rate limit and no delay, each with a PD, a CQ and one RC QP
 * connected to the other's, path MTU 4096. Static neighbour entries, so no ARP happens during a
 * measurement. The setting of {@code RealTimeTransferTest}, made for benchmarks.
 *
 * <p>The runtime ({@code bench.nicIdle}): {@code park} puts each NIC on a {@link RealTimeScheduler}
 * (a Netty NIO event loop that sleeps in {@code epoll_wait} when idle, the default runtime);
 * {@code spin}, {@code yield} or {@code backoff} on a {@link BusyPollScheduler} with that idle
 * strategy.
 */
final class RealTimeNicPair implements AutoCloseable {
    static final int IP_A = Ipv4.parse("10.77.0.11");
    static final int IP_B = Ipv4.parse("10.77.0.10");
    static final int PSN_A = 0x000100;
    static final int PSN_B = 0x000200;
    /** Thread-name prefixes of the two NIC event loops. */
    static final String THREAD_A = "nic-a";
    static final String THREAD_B = "nic-b";
    static final int FRAME_SLOT = 4352;

    final String idle;
    final Scheduler schedA;
    final Scheduler schedB;
    final InProcessLink link;
    final SoftNic a;
    final SoftNic b;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair qpA;
    final QueuePair qpB;

    RealTimeNicPair(int mtu, int cqCapacity, QpCaps caps) {
        this(mtu, cqCapacity, caps, 2);
    }

    RealTimeNicPair(int mtu, int cqCapacity, QpCaps caps, int loops) {
        this(mtu, cqCapacity, caps, loops, nicIdle());
    }

    /**
     * A NIC's frame allocator, chosen with {@code -Dbench.alloc}: {@code nic} (default) leaves the NIC
     * its own default (a {@link FramePoolAllocator} per NIC); {@code frames} gives each NIC a
     * {@link FramePoolAllocator} with slots of {@value #FRAME_SLOT} bytes and 4096 free frames;
     * {@code pooled} is Netty's {@code PooledByteBufAllocator.DEFAULT}, the NIC's default before.
     */
    static SoftNic.Builder allocator(SoftNic.Builder b) {
        String name = System.getProperty("bench.alloc", "nic");
        return switch (name) {
            case "nic" -> b;
            case "frames" -> b.allocator(new FramePoolAllocator(FRAME_SLOT, 4096));
            case "pooled" -> b.allocator(PooledByteBufAllocator.DEFAULT);
            default -> throw new IllegalArgumentException("bench.alloc must be nic, frames or pooled: " + name);
        };
    }

    /** The runtime chosen with {@code -Dbench.nicIdle} (park, spin, yield, backoff; default park). */
    static String nicIdle() {
        return System.getProperty("bench.nicIdle", "park");
    }

    static Scheduler startScheduler(String threadName, String idle) {
        return "park".equals(idle) ? RealTimeScheduler.start(threadName)
                : BusyPollScheduler.start(threadName, BusyPollScheduler.idleStrategy(idle));
    }

    /**
     * @param loops 2: each NIC on its own event loop (the real setting); 1: both NICs on one event
     *              loop, which takes the cross-thread hand-offs out of the data path
     * @param idle  {@code park} (a sleeping Netty event loop) or a {@link BusyPollScheduler} idle strategy
     */
    RealTimeNicPair(int mtu, int cqCapacity, QpCaps caps, int loops, String idle) {
        if (loops != 1 && loops != 2) {
            throw new IllegalArgumentException("loops must be 1 or 2: " + loops);
        }
        this.idle = idle;
        schedA = startScheduler(THREAD_A, idle);
        schedB = loops == 2 ? startScheduler(THREAD_B, idle) : schedA;
        // rate 0 = unlimited: no serialization delay, no queueing; no propagation delay
        link = InProcessLink.builder().name("a-b").rateBitsPerSecond(0).propagationDelayNanos(0)
                .build(schedA, schedB);
        a = allocator(SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(IP_A).activeMtu(4096)
                .scheduler(schedA).port(link.portA())).build();
        b = allocator(SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(IP_B).activeMtu(4096)
                .scheduler(schedB).port(link.portB())).build();
        a.addNeighbor(IP_B, b.mac());
        b.addNeighbor(IP_A, a.mac());
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(cqCapacity);
        cqB = b.createCq(cqCapacity);
        qpA = a.createQp(pdA, QpType.RC, cqA, cqA, caps);
        qpB = b.createQp(pdB, QpType.RC, cqB, cqB, caps);
        connect(qpA, qpB, IP_B, PSN_B, PSN_A, mtu);
        connect(qpB, qpA, IP_A, PSN_A, PSN_B, mtu);
    }

    /** RESET → INIT → RTR → RTS as perftest does it: timeout 14, retry 7, rnr_retry 7, 16 rd/atomic. */
    private static void connect(QueuePair qp, QueuePair peer, int peerIp, int rqPsn, int sqPsn, int mtu) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp)).pathMtu(mtu)
                .destQpn(peer.qpn()).rqPsn(rqPsn).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16));
    }

    /** The counters that tell whether the transport had to work around anything (both NICs). */
    String transportCounters() {
        StringBuilder s = new StringBuilder();
        for (SoftNic n : new SoftNic[] {a, b}) {
            s.append(String.format(Locale.ROOT, "  nic %s: sent_pkts=%d rcvd_pkts=%d ack_deferred=%d retries=%d"
                            + " duplicate_request=%d out_of_seq_request=%d drop_bad_icrc=%d%n", n.name(),
                    n.counters().get(NicCounter.SENT_PKTS), n.counters().get(NicCounter.RCVD_PKTS),
                    n.counters().get(NicCounter.ACK_DEFERRED), n.counters().get(NicCounter.COMPLETER_RETRY_ERR),
                    n.counters().get(NicCounter.DUPLICATE_REQUEST), n.counters().get(NicCounter.OUT_OF_SEQ_REQUEST),
                    n.counters().get(NicCounter.DROP_BAD_ICRC)));
        }
        return s.toString();
    }

    @Override
    public void close() {
        try {
            a.close();
            b.close();
        } finally {
            close(schedA);
            if (schedB != schedA) {
                close(schedB);
            }
        }
    }

    static void close(Scheduler s) {
        if (s instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** CPU time so far of the live threads whose names start with {@code prefix} (ns; -1 if unsupported). */
    static long threadCpuNanos(String prefix) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported()) {
            return -1;
        }
        long sum = 0;
        for (ThreadInfo ti : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (ti != null && ti.getThreadName().startsWith(prefix)) {
                long t = mx.getThreadCpuTime(ti.getThreadId());
                if (t > 0) {
                    sum += t;
                }
            }
        }
        return sum;
    }

    /** CPU time of the whole JVM so far (ns; -1 if unsupported). */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** Reads a {@code -Dname=value} long, with a default. */
    static long longProperty(String name, long def) {
        String v = System.getProperty(name);
        return v == null ? def : Long.parseLong(v.trim());
    }

    static String machine() {
        return String.format(Locale.ROOT, "%d CPUs available to the JVM, Java %s, %s", Runtime.getRuntime()
                .availableProcessors(), System.getProperty("java.version"), System.getProperty("java.vm.name"));
    }
}
