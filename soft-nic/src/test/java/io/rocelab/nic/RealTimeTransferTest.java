package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.nic.stats.NicCounter;
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
