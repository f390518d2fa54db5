package io.rocelab.bench.nic;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.WorkCompletion;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The CPU cost of the in-process RC WRITE data path per packet, without threads: both NICs, the link
 * and the application on one thread under a {@link VirtualTimeScheduler} (unlimited rate, no delay),
 * the same traffic as {@link NicWriteBandwidthBench} (64 KB WRITEs, MTU 4096, qd 128). Prints the
 * thread's CPU nanoseconds per 4 KB packet beside those of {@link WriteDataPathFloor} measured in the
 * same run. Nothing spins or sleeps here, so on a shared machine this is a steadier measure of the
 * per-packet work than the real-time benchmark, whose NIC thread also spins while idle.
 *
 * <p>Properties: {@code bench.cpuSeconds} (4, CPU seconds per round), {@code bench.rounds} (3),
 * {@code bench.qd} (128), {@code bench.size} (65536), {@code bench.mtu} (4096), {@code bench.alloc}
 * (see {@link RealTimeNicPair#allocator}), {@code bench.cc} ({@code none}, or {@code dcqcn}: DCQCN on both NICs,
 * with no congestion: the cost of the reaction point's bookkeeping on every packet).
 */
public final class NicWriteCpuBench {
    private NicWriteCpuBench() {
    }

    /** DCQCN on the NIC if {@code bench.cc=dcqcn}. */
    private static SoftNic.Builder congestionControl(SoftNic.Builder b) {
        String cc = System.getProperty("bench.cc", "none");
        return switch (cc) {
            case "none" -> b;
            case "dcqcn" -> b.dcqcn(io.rocelab.nic.cc.DcqcnParams.defaults());
            default -> throw new IllegalArgumentException("bench.cc must be none or dcqcn: " + cc);
        };
    }

    public static void main(String[] args) {
        long seconds = RealTimeNicPair.longProperty("bench.cpuSeconds", 4);
        int rounds = (int) RealTimeNicPair.longProperty("bench.rounds", 3);
        int qd = (int) RealTimeNicPair.longProperty("bench.qd", 128);
        int size = (int) RealTimeNicPair.longProperty("bench.size", 65536);
        int mtu = (int) RealTimeNicPair.longProperty("bench.mtu", 4096);
        byte[] src = new byte[size];
        for (int i = 0; i < size; i++) {
            src[i] = (byte) (i * 31 + 7);
        }
        int pktsPerMsg = (size + mtu - 1) / mtu;
        System.out.printf(Locale.ROOT, "NicWriteCpuBench: RC WRITE %d B, MTU %d, qd %d, one thread, virtual time,"
                + " congestion control %s%n", size, mtu, qd, System.getProperty("bench.cc", "none"));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        VirtualTimeScheduler s = new VirtualTimeScheduler();
        InProcessLink link = InProcessLink.builder().name("a-b").rateBitsPerSecond(0).propagationDelayNanos(0)
                .build(s, s);
        int ipA = RealTimeNicPair.IP_A;
        int ipB = RealTimeNicPair.IP_B;
        SoftNic a = congestionControl(RealTimeNicPair.allocator(SoftNic.builder().name("a").mac("52:54:00:77:00:01")
                .ipv4(ipA).activeMtu(4096).scheduler(s).port(link.portA()))).build();
        SoftNic b = congestionControl(RealTimeNicPair.allocator(SoftNic.builder().name("b").mac("52:54:00:77:00:00")
                .ipv4(ipB).activeMtu(4096).scheduler(s).port(link.portB()))).build();
        a.addNeighbor(ipB, b.mac());
        b.addNeighbor(ipA, a.mac());
        ProtectionDomain pdA = a.allocPd();
        ProtectionDomain pdB = b.allocPd();
        CompletionQueue cqA = a.createCq(4 * qd);
        CompletionQueue cqB = b.createCq(4 * qd);
        QpCaps caps = new QpCaps(Math.max(qd, 1024), 1024, 1, 1, 0, false);
        QueuePair qpA = a.createQp(pdA, QpType.RC, cqA, cqA, caps);
        QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, caps);
        connect(qpA, qpB, ipB, RealTimeNicPair.PSN_B, RealTimeNicPair.PSN_A, mtu);
        connect(qpB, qpA, ipA, RealTimeNicPair.PSN_A, RealTimeNicPair.PSN_B, mtu);
        byte[] remote = new byte[size];
        MemoryRegion mrSrc = pdA.registerMr(src, 0x10000, AccessFlags.LOCAL_WRITE);
        MemoryRegion mrRemote = pdB.registerMr(remote, 0x80000, AccessFlags.ALL);
        List<WorkCompletion> wcs = new ArrayList<>(qd);
        long[] wrId = {0};
        int[] outstanding = {0};
        double[] nicNs = new double[rounds + 1];
        double[] floorNs = new double[rounds + 1];
        for (int r = 0; r <= rounds; r++) { // round 0 warms up
            long budget = (r == 0 ? Math.max(2, seconds) : seconds) * 1_000_000_000L;
            long cpu0 = mx.getCurrentThreadCpuTime();
            long msgs = 0;
            while (mx.getCurrentThreadCpuTime() - cpu0 < budget) {
                for (int k = 0; k < 50; k++) {
                    while (outstanding[0] < qd) {
                        qpA.postSend(SendWr.write(++wrId[0], Sge.of(mrSrc), mrRemote.addr(), mrRemote.rkey())
                                .signaled(true));
                        outstanding[0]++;
                    }
                    s.run(256);
                    wcs.clear();
                    int n = cqA.poll(qd, wcs);
                    for (int i = 0; i < n; i++) {
                        if (!wcs.get(i).isSuccess()) {
                            throw new IllegalStateException("WRITE failed: " + wcs.get(i));
                        }
                    }
                    outstanding[0] -= n;
                    msgs += n;
                }
            }
            long cpu = mx.getCurrentThreadCpuTime() - cpu0;
            nicNs[r] = cpu / (double) (msgs * pktsPerMsg);
            try (WriteDataPathFloor floor = new WriteDataPathFloor(src, new byte[size], mtu)) {
                floor.run(300_000_000L, true);
                long fCpu0 = mx.getCurrentThreadCpuTime();
                long fWall0 = System.nanoTime();
                double gbps = floor.run(Math.max(1, seconds / 2) * 1_000_000_000L, true);
                long fWall = System.nanoTime() - fWall0;
                long fCpu = mx.getCurrentThreadCpuTime() - fCpu0;
                double packets = gbps * fWall / 8 / mtu; // Gb/s x ns = bits
                floorNs[r] = fCpu / packets; // CPU ns per packet of mtu bytes
            }
            if (r > 0) {
                System.out.printf(Locale.ROOT, "round %d: NIC %.0f ns CPU per packet (%d messages), floor %.0f ns;"
                        + " floor / NIC = %.2f%n", r, nicNs[r], msgs, floorNs[r], floorNs[r] / nicNs[r]);
            }
        }
        double[] n = Arrays.copyOfRange(nicNs, 1, rounds + 1);
        double[] f = Arrays.copyOfRange(floorNs, 1, rounds + 1);
        Arrays.sort(n);
        Arrays.sort(f);
        System.out.printf(Locale.ROOT, "CPU per packet: NIC best %.0f ns, median %.0f; floor best %.0f ns, median %.0f;"
                + " floor / NIC (best/best) = %.2f%n", n[0], n[n.length / 2], f[0], f[f.length / 2], f[0] / n[0]);
        s.run(1_000_000);
        if (!Arrays.equals(src, remote)) {
            throw new IllegalStateException("remote region differs from the source");
        }
    }

    private static void connect(QueuePair qp, QueuePair peer, int peerIp, int rqPsn, int sqPsn, int mtu) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp)).pathMtu(mtu)
                .destQpn(peer.qpn()).rqPsn(rqPsn).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16));
    }
}
