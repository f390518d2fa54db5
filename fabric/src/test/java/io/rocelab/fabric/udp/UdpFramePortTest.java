package io.rocelab.fabric.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.nio.NioIoHandler;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.fabric.testing.Delivery;
import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.Await;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.RealTimeScheduler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frame-over-UDP on 127.0.0.1 with ephemeral ports. Frames go one at a time and every wait is
 * bounded (10 s) but not timed, so the test does not depend on the machine's speed.
 */
class UdpFramePortTest {

    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static RealTimeScheduler loopA;
    private static RealTimeScheduler loopB;

    private final TestFrames frames = TestFrames.direct();
    private UdpFramePort a;
    private UdpFramePort b;

    @BeforeAll
    static void startLoops() {
        // a port takes its loop's channel kind: epoll at a (where it loads), NIO at b, so every test
        // runs both kinds of channel
        loopA = RealTimeScheduler.start("udp-a");
        loopB = RealTimeScheduler.start("udp-b", NioIoHandler.newFactory());
    }

    @AfterAll
    static void stopLoops() {
        loopA.close();
        loopB.close();
    }

    @BeforeEach
    void openPorts() {
        a = UdpFramePort.builder().name("a").open(loopA);
        b = UdpFramePort.builder().name("b").open(loopB);
        a.setRemoteAddress(b.localAddress());
        b.setRemoteAddress(a.localAddress());
    }

    @AfterEach
    void closePorts() throws InterruptedException {
        a.close();
        b.close();
        // Netty releases written frames on the loop once the write completed
        await(() -> frames.unreleased() == 0, "all sent frames released");
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        Await.until(condition, WAIT_NANOS, what);
    }

    @Test
    void framesOf60To9000BytesCrossByteExactlyInBothDirections() throws Exception {
        final RecordingPort atB = new RecordingPort(loopB, null, true);
        final RecordingPort atA = new RecordingPort(loopA, null, true);
        b.setReceiver(atB);
        a.setReceiver(atA);
        final List<Integer> sizes = new ArrayList<>(List.of(60, 61, 64, 100, 128, 511, 1000, 1500, 1514, 1518,
            2048, 4096, 8192, 8999, 9000));
        final SplitMix64 random = new SplitMix64(4791);
        for (int i = 0; i < 25; i++) {
            sizes.add(60 + random.nextInt(9000 - 60 + 1));
        }

        for (int i = 0; i < sizes.size(); i++) {
            final int expected = i + 1;
            a.send(frames.frame(i, sizes.get(i)));
            await(() -> atB.count() == expected, "frame " + expected + " at b");
            b.send(frames.frame(1_000 + i, sizes.get(sizes.size() - 1 - i)));
            await(() -> atA.count() == expected, "frame " + expected + " at a");
        }

        final List<Delivery> gotB = atB.deliveries();
        final List<Delivery> gotA = atA.deliveries();
        for (int i = 0; i < sizes.size(); i++) {
            assertArrayEquals(TestFrames.expectedBytes(i, sizes.get(i)), gotB.get(i).bytes(), "a->b frame " + i);
            assertArrayEquals(TestFrames.expectedBytes(1_000 + i, sizes.get(sizes.size() - 1 - i)),
                gotA.get(i).bytes(), "b->a frame " + i);
            assertTrue(gotB.get(i).thread().startsWith("udp-b"), "delivered on b's loop");
        }
        final long bytes = sizes.stream().mapToLong(Integer::longValue).sum();
        assertEquals(sizes.size(), a.counters().get(UdpPortCounter.FRAMES_SENT));
        assertEquals(bytes, a.counters().get(UdpPortCounter.BYTES_SENT));
        assertEquals(sizes.size(), b.counters().get(UdpPortCounter.FRAMES_RECEIVED));
        assertEquals(bytes, b.counters().get(UdpPortCounter.BYTES_RECEIVED));
        assertEquals(bytes, a.counters().get(UdpPortCounter.BYTES_RECEIVED));
    }

    @Test
    void theDatagramIsTheFrameWithNoHeaderAsQemuExpects() throws Exception {
        try (DatagramSocket qemu = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            qemu.setSoTimeout(10_000);
            a.setRemoteAddress((InetSocketAddress) qemu.getLocalSocketAddress());

            // rocelab -> qemu: the datagram payload is exactly the frame
            a.send(frames.frame(7, 1514));
            final byte[] buffer = new byte[65_536];
            final DatagramPacket in = new DatagramPacket(buffer, buffer.length);
            qemu.receive(in);
            assertArrayEquals(TestFrames.expectedBytes(7, 1514), Arrays.copyOf(buffer, in.getLength()));

            // qemu -> rocelab: a 42-byte ARP request (virtio does not pad) arrives unchanged
            final BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();
            a.setReceiver((port, frame) -> {
                final byte[] bytes = new byte[frame.readableBytes()];
                frame.readBytes(bytes);
                frame.release();
                received.add(bytes);
            });
            final byte[] arp = arpRequest();
            qemu.send(new DatagramPacket(arp, arp.length, a.localAddress()));
            assertArrayEquals(arp, received.poll(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void runtAndOversizedDatagramsAreCountedAndDropped() throws Exception {
        final RecordingPort atA = new RecordingPort(loopA, null, true);
        a.setReceiver(atA);
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            for (int length : new int[] {0, 13, UdpFramePort.DEFAULT_MAX_FRAME_BYTES + 1, 20_000}) {
                peer.send(new DatagramPacket(new byte[length], length, a.localAddress()));
            }
            final byte[] good = TestFrames.expectedBytes(1, UdpFramePort.DEFAULT_MAX_FRAME_BYTES);
            peer.send(new DatagramPacket(good, good.length, a.localAddress()));
            final byte[] smallest = TestFrames.expectedBytes(2, TestFrames.MIN_LENGTH);
            peer.send(new DatagramPacket(smallest, smallest.length, a.localAddress()));
        }

        await(() -> atA.count() == 2 && a.counters().get(UdpPortCounter.RX_DROPPED_RUNT) == 2
            && a.counters().get(UdpPortCounter.RX_DROPPED_OVERSIZED) == 2, "counters " + a.counters());
        assertEquals(List.of(1, 2), atA.ids());
        assertEquals(2, a.counters().get(UdpPortCounter.FRAMES_RECEIVED));
    }

    @Test
    void aPaddingPortPadsShortFramesToEthernetsMinimumAsAWireDoes() throws Exception {
        final RecordingPort plain = new RecordingPort(loopA, null, true);
        a.setReceiver(plain);
        final UdpFramePort padding = UdpFramePort.builder().name("pad").padShortFrames(true).open(loopB);
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            final RecordingPort padded = new RecordingPort(loopB, null, true);
            padding.setReceiver(padded);
            final byte[] arp = new byte[42]; // an ARP request as qemu's virtio NIC sends it, unpadded
            java.util.Arrays.fill(arp, (byte) 0xA5);
            final byte[] longer = TestFrames.expectedBytes(3, 100);
            for (InetSocketAddress to : List.of(a.localAddress(), padding.localAddress())) {
                peer.send(new DatagramPacket(arp, arp.length, to));
                peer.send(new DatagramPacket(longer, longer.length, to));
            }
            await(() -> plain.count() == 2 && padded.count() == 2, "both ports received both frames");
            final byte[] expected = java.util.Arrays.copyOf(arp, UdpFramePort.MIN_WIRE_FRAME_BYTES);
            assertArrayEquals(expected, padded.deliveries().get(0).bytes(), "42 bytes and 18 zeros");
            assertArrayEquals(longer, padded.deliveries().get(1).bytes(), "a frame of 60 bytes or more as sent");
            assertArrayEquals(arp, plain.deliveries().get(0).bytes(), "by default a frame passes as the peer sent it");
        } finally {
            padding.close();
        }
    }

    @Test
    void framesThatCannotBeSentAreCountedAndReleased() throws Exception {
        final ByteBuf runt = frames.allocator().directBuffer(13).writeZero(13);
        frames.track(runt);
        a.send(runt);
        a.send(frames.frame(1, UdpFramePort.DEFAULT_MAX_FRAME_BYTES + 1));
        final UdpFramePort unconnected = UdpFramePort.builder().name("c").open(loopA);
        try {
            unconnected.send(frames.frame(2, 64));
            await(() -> unconnected.counters().get(UdpPortCounter.TX_DROPPED_NO_REMOTE) == 1, "no-remote drop");
        } finally {
            unconnected.close();
        }
        await(() -> a.counters().get(UdpPortCounter.TX_DROPPED_RUNT) == 1
            && a.counters().get(UdpPortCounter.TX_DROPPED_OVERSIZED) == 1, "counters " + a.counters());
        assertEquals(0, a.counters().get(UdpPortCounter.FRAMES_SENT));
    }

    @Test
    void framesWithoutAReceiverAreCounted() throws Exception {
        a.send(frames.frame(1, 100));
        await(() -> b.counters().get(UdpPortCounter.RX_DROPPED_NO_RECEIVER) == 1, "drop at b");
    }

    @Test
    void closingTakesTheLinkDownAndLaterFramesAreDropped() throws Exception {
        final BlockingQueue<Boolean> states = new LinkedBlockingQueue<>();
        b.addLinkStateListener((port, up) -> states.add(up));
        assertTrue(b.isUp());

        b.close();

        assertEquals(Boolean.FALSE, states.poll(10, TimeUnit.SECONDS));
        assertFalse(b.isUp());
        b.send(frames.frame(1, 64));
        await(() -> b.counters().get(UdpPortCounter.TX_DROPPED_CLOSED) == 1, "closed drop");
    }

    @Test
    void badConfigurationIsRejectedNamingTheArgument() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> UdpFramePort.builder().maxFrameBytes(70_000));
        assertTrue(e.getMessage().contains("maxFrameBytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UdpFramePort.builder().localPort(70_000));
        assertThrows(IllegalArgumentException.class, () -> UdpFramePort.builder().remotePort(0));
        // the port a is bound to is taken
        assertThrows(RuntimeException.class,
            () -> UdpFramePort.builder().localAddress(a.localAddress()).open(loopA).close());
    }

    /** An ARP request from 10.77.0.10 (52:54:00:77:00:00) for 10.77.0.11: 42 bytes, unpadded. */
    private static byte[] arpRequest() {
        final int[] bytes = {
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x52, 0x54, 0x00, 0x77, 0x00, 0x00, 0x08, 0x06,
            0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01,
            0x52, 0x54, 0x00, 0x77, 0x00, 0x00, 10, 77, 0, 10,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 10, 77, 0, 11};
        final byte[] frame = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            frame[i] = (byte) bytes[i];
        }
        return frame;
    }
}
