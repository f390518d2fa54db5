package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.nic.stats.NicCounter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The same two-NIC transfer under the real-time scheduler: each NIC on its own Netty event loop,
 * the test thread posting through the command queue and polling the CQs. Once over an in-process
 * link, once over frame-over-UDP ports on 127.0.0.1 (qemu's socket-netdev format).
 */
class RealTimeTransferTest {
    private static final int SIZE = 64 * 1024;

    @Test
    void transferOverAnInProcessLink() throws Exception {
        try (RealTimeScheduler sa = RealTimeScheduler.start("nic-a"); RealTimeScheduler sb = RealTimeScheduler.start("nic-b")) {
            InProcessLink link = InProcessLink.builder().rateGbps(25).propagationDelayNanos(1000).build(sa, sb);
            transfer(sa, sb, link.portA(), link.portB());
        }
    }

    @Test
    void transferOverUdpFramePorts() throws Exception {
        try (RealTimeScheduler sa = RealTimeScheduler.start("nic-a"); RealTimeScheduler sb = RealTimeScheduler.start("nic-b");
             UdpFramePort pa = UdpFramePort.builder().name("a").localPort(0).open(sa);
             UdpFramePort pb = UdpFramePort.builder().name("b").localPort(0)
                     .remoteAddress(pa.localAddress()).open(sb)) {
            pa.setRemoteAddress(pb.localAddress());
            transfer(sa, sb, pa, pb);
        }
    }

    /**
     * Both NICs on one event loop (as a netns lab runs every NIC and switch), over frame-over-UDP ports,
     * while the loop is kept busy by a chain of tasks that never runs dry for longer than the writer's
     * retries last (as a transmitter that cannot keep up with its line rate on a loaded machine keeps
     * it): the write still completes. Before, the loop read its sockets only once the chain ended,
     * while the writer's ACK timer ran on: it timed out 8 times with b's ACK waiting in a's socket and
     * ended in IBV_WC_RETRY_EXC_ERR, the ACK dropped on arrival as the QP was in ERR (drop_qp_state).
     */
    @Test
    void aWriteCompletesWhileItsLoopIsBusyLongerThanItsRetriesLast() throws Exception {
        long busyNanos = TimeUnit.MILLISECONDS.toNanos(800); // under Netty's one-second task quantum
        int timeout = 13; // 33.6 ms: 8 expiries (1 + retry count 7) in 270 ms
        try (RealTimeScheduler loop = RealTimeScheduler.start("nics");
             UdpFramePort pa = UdpFramePort.builder().name("a").localPort(0).open(loop);
             UdpFramePort pb = UdpFramePort.builder().name("b").localPort(0)
                     .remoteAddress(pa.localAddress()).open(loop)) {
            pa.setRemoteAddress(pb.localAddress());
            SoftNic a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(NicRig.IP_A).activeMtu(4096)
                    .scheduler(loop).port(pa).build();
            SoftNic b = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(NicRig.IP_B).activeMtu(4096)
                    .scheduler(loop).port(pb).build();
            try {
                // static neighbours: a request parked for ARP would hold the ACK timer, not use up retries
                a.addNeighbor(NicRig.IP_B, MacAddress.parse("52:54:00:77:00:00"));
                b.addNeighbor(NicRig.IP_A, MacAddress.parse("52:54:00:77:00:01"));
                ProtectionDomain pdA = a.allocPd();
                ProtectionDomain pdB = b.allocPd();
                CompletionQueue cqA = a.createCq(16);
                CompletionQueue cqB = b.createCq(16);
                QueuePair qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
                QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
                NicRig.connect(qpA, qpB, NicRig.IP_B, NicRig.PSN_B, NicRig.PSN_A, QpType.RC, 4096, timeout, 7, 7, 12);
                NicRig.connect(qpB, qpA, NicRig.IP_A, NicRig.PSN_A, NicRig.PSN_B, QpType.RC, 4096, timeout, 7, 7, 12);
                MemoryRegion src = pdA.registerMr(new byte[4096], 0x1000, AccessFlags.ALL);
                MemoryRegion dst = pdB.registerMr(new byte[4096], 0x8000, AccessFlags.ALL);
                src.buffer()[src.bufferOffset() + 7] = 42;
                loop.execute(new Runnable() {
                    private long began = -1;

                    @Override
                    public void run() {
                        long now = loop.nanoTime();
                        if (began < 0) {
                            began = now;
                            qpA.postSend(SendWr.write(1, Sge.of(src, 0, 4096), dst.addr(), dst.rkey()).signaled(true));
                        }
                        if (now - began >= busyNanos) {
                            return;
                        }
                        while (loop.nanoTime() - now < 20_000) {
                            Thread.onSpinWait(); // a task's work
                        }
                        loop.execute(this);
                    }
                });
                WorkCompletion wc = null;
                for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); wc == null && System.nanoTime() < end; ) {
                    wc = cqA.poll();
                    Thread.sleep(1);
                }
                assertNotNull(wc, "the write never completed: " + a.counters());
                assertEquals(WcStatus.SUCCESS, wc.status(), "a: " + a.counters() + "; b: " + b.counters());
                assertEquals(42, dst.buffer()[dst.bufferOffset() + 7]);
            } finally {
                a.close();
                b.close();
            }
        }
    }

    private static void transfer(RealTimeScheduler sa, RealTimeScheduler sb, FramePort portA, FramePort portB)
            throws InterruptedException {
        SoftNic a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(NicRig.IP_A).activeMtu(4096)
                .scheduler(sa).port(portA).build();
        SoftNic b = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(NicRig.IP_B).activeMtu(4096)
                .scheduler(sb).port(portB).build();
        try {
            ProtectionDomain pdA = a.allocPd();
            ProtectionDomain pdB = b.allocPd();
            CompletionQueue cqA = a.createCq(64);
            CompletionQueue cqB = b.createCq(64);
            QueuePair qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
            QueuePair qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
            NicRig.connect(qpA, qpB, NicRig.IP_B, NicRig.PSN_B, NicRig.PSN_A, QpType.RC, 4096, 14, 7, 7, 12);
            NicRig.connect(qpB, qpA, NicRig.IP_A, NicRig.PSN_A, NicRig.PSN_B, QpType.RC, 4096, 14, 7, 7, 12);

            WriteSendReadRound.run(pdA, pdB, qpA, qpB, cqA, cqB, SIZE, 7, 0x10000, () -> " " + a.counters());
            assertTrue(a.counters().get(NicCounter.SENT_PKTS) >= 2 * SIZE / 4096 + 1);
        } finally {
            a.close();
            b.close();
        }
    }
}
