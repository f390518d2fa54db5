package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.fabric.udp.UdpPortCounter;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.Lab;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Switch ports on frame-over-UDP (qemu's {@code -netdev socket,udp=} format) on 127.0.0.1: two
 * hosts, each a {@link UdpFramePort} on its own event loop, talk through a switch whose two ports
 * are UdpFramePorts on the switch's {@link RealTimeScheduler} loop. Every RoCEv2 frame is routed
 * both ways: next-hop MAC and router MAC rewritten, TTL decremented with a valid IPv4 checksum,
 * DSCP kept, nothing lost or reordered on the loopback.
 */
class UdpSwitchPortTest {
    private static final int N = 300;
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    /** What one host saw; written on its event loop, read after the latch. */
    private static final class Seen {
        final CountDownLatch done = new CountDownLatch(N);
        final AtomicInteger bad = new AtomicInteger();
        final AtomicInteger outOfOrder = new AtomicInteger();
        final ParsedFrame parsed = new ParsedFrame();
        int nextPsn;

        void onFrame(ByteBuf f, long myMac, int ttl) {
            try {
                boolean ok = parsed.parse(f) == null && parsed.isRoce() && parsed.dstMac() == myMac
                    && parsed.srcMac() == MacAddress.parse(ConfigBuilder.ROUTER_MAC)
                    && Ipv4.ttl(f, parsed.l3Offset()) == ttl - 1 && Ipv4.checksumOk(f, parsed.l3Offset())
                    && parsed.dscp() == 26;
                if (!ok) {
                    bad.incrementAndGet();
                    return;
                }
                if (parsed.psn() != nextPsn) {
                    outOfOrder.incrementAndGet();
                }
                nextPsn = parsed.psn() + 1;
                done.countDown();
            } finally {
                f.release();
            }
        }
    }

    @Test
    void routesBothWaysOverUdpPorts() throws Exception {
        try (RealTimeScheduler swLoop = RealTimeScheduler.start("udp-switch");
             RealTimeScheduler hostLoop = RealTimeScheduler.start("udp-hosts")) {
            SoftSwitch sw = new SoftSwitch(Lab.routes(new ConfigBuilder(2, 10), 2).build(), swLoop, ALLOC, 5);
            UdpFramePort s0 = UdpFramePort.builder().name("sw:Ethernet0").open(swLoop);
            UdpFramePort s4 = UdpFramePort.builder().name("sw:Ethernet4").open(swLoop);
            UdpFramePort h0 = UdpFramePort.builder().name("h0").remoteAddress(s0.localAddress()).open(hostLoop);
            UdpFramePort h1 = UdpFramePort.builder().name("h1").remoteAddress(s4.localAddress()).open(hostLoop);
            try {
                s0.setRemoteAddress(h0.localAddress());
                s4.setRemoteAddress(h1.localAddress());
                CompletableFuture<Void> attached = new CompletableFuture<>();
                swLoop.execute(() -> {
                    sw.attach("Ethernet0", s0);
                    sw.attach("Ethernet4", s4);
                    attached.complete(null);
                });
                attached.get(5, TimeUnit.SECONDS);
                Seen at0 = new Seen();
                Seen at1 = new Seen();
                ByteBuf t01 = frame(0, 1);
                ByteBuf t10 = frame(1, 0);
                int ttl = Ipv4.ttl(t01, 14);
                h0.setReceiver((p, f) -> at0.onFrame(f, Lab.hostMac(0), ttl));
                h1.setReceiver((p, f) -> at1.onFrame(f, Lab.hostMac(1), ttl));
                hostLoop.execute(() -> {
                    for (int k = 0; k < N; k++) {
                        h0.send(withPsn(t01, k));
                        h1.send(withPsn(t10, k));
                    }
                    t01.release();
                    t10.release();
                });
                assertTrue(at1.done.await(10, TimeUnit.SECONDS), "h1 got " + (N - at1.done.getCount()) + " of " + N);
                assertTrue(at0.done.await(10, TimeUnit.SECONDS), "h0 got " + (N - at0.done.getCount()) + " of " + N);
                assertEquals(0, at0.bad.get() + at1.bad.get(), "every frame routed and rewritten correctly");
                assertEquals(0, at0.outOfOrder.get() + at1.outOfOrder.get(), "in order");
                CompletableFuture<long[]> c = new CompletableFuture<>();
                swLoop.execute(() -> c.complete(new long[] {sw.counters(0).rxFrames, sw.counters(0).txFrames,
                    sw.counters(1).rxFrames, sw.counters(1).txFrames, sw.counters(0).totalDrops() + sw.counters(1).totalDrops()}));
                long[] v = c.get(5, TimeUnit.SECONDS);
                System.out.printf("UDP ports: Ethernet0 rx %d tx %d, Ethernet4 rx %d tx %d, drops %d; %s%n", v[0], v[1],
                    v[2], v[3], v[4], s0.counters());
                assertEquals(N, v[0]);
                assertEquals(N, v[1]);
                assertEquals(N, v[2]);
                assertEquals(N, v[3]);
                assertEquals(0, v[4]);
                assertEquals(N, s0.counters().get(UdpPortCounter.FRAMES_SENT));
            } finally {
                h0.close();
                h1.close();
                s0.close();
                s4.close();
            }
        }
    }

    private static ByteBuf frame(int from, int to) {
        return new RoceFrame().ethernet(MacAddress.parse(ConfigBuilder.ROUTER_MAC), Lab.hostMac(from))
            .ipv4(Lab.hostIp(from), Lab.hostIp(to)).udp(0xC000 + from, 4791).dscpEcn(26, 2)
            .opcode(Opcode.RC_SEND_ONLY).destQp(0x11).psn(0).payload(new byte[1024]).encode(ALLOC);
    }

    /** A copy of {@code template} with BTH PSN {@code psn} (the ICRC is not checked by the switch). */
    private static ByteBuf withPsn(ByteBuf template, int psn) {
        ByteBuf f = template.copy();
        ParsedFrame p = new ParsedFrame();
        p.parse(f);
        f.setMedium(p.bthOffset() + 9, psn);
        return f;
    }
}
