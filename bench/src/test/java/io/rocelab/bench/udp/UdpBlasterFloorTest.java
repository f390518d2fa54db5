package io.rocelab.bench.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.unix.SegmentedDatagramPacket;
import io.rocelab.fabric.endpoint.UdpTransport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the floor's sender writes, read from an embedded channel: the datagrams, their sizes, their order. */
class UdpBlasterFloorTest {
    private static final InetSocketAddress DEST = new InetSocketAddress("10.99.0.2", 4791);
    private static final int MIDDLE = 4112;
    private static final int FIRST = 4128;

    @BeforeEach
    void epollPresent() {
        // the sender writes Netty's epoll SegmentedDatagramPacket, which exists only where epoll loads
        if (UdpTransport.best() != UdpTransport.EPOLL) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("epoll unavailable in CI: " + UdpTransport.epollUnavailableReason());
            }
            Assumptions.abort("epoll unavailable here: " + UdpTransport.epollUnavailableReason());
        }
    }

    @Test
    void writeShapedFloorSendsTheFirstBeforeEveryGsoBuffer() throws InterruptedException {
        final EmbeddedChannel ch = new EmbeddedChannel();
        final ByteBuf first = zeros(FIRST);
        final ByteBuf burst = zeros(UdpBlasterFloor.SEGMENTS * MIDDLE);
        try {
            final UdpBlasterFloor.Pump pump = run(ch, first, burst);
            long buffers = 0;
            for (Object msg; (msg = ch.readOutbound()) != null; buffers++) {
                final DatagramPacket alone = assertInstanceOf(DatagramPacket.class, msg);
                assertFalse(alone instanceof SegmentedDatagramPacket, "the FIRST goes alone, before GSO buffer " + buffers);
                assertEquals(FIRST, alone.content().readableBytes());
                assertEquals(DEST, alone.recipient());
                alone.release();
                assertGsoBuffer(ch.readOutbound(), "GSO buffer " + buffers + " after its FIRST");
            }
            assertEquals(pump.writes, buffers, "GSO buffers counted");
            assertTrue(buffers >= 64, "one fill's worth at least: " + buffers);
        } finally {
            ch.finishAndReleaseAll();
            first.release();
            burst.release();
        }
    }

    @Test
    void plainFloorSendsGsoBuffersOnly() throws InterruptedException {
        final EmbeddedChannel ch = new EmbeddedChannel();
        final ByteBuf burst = zeros(UdpBlasterFloor.SEGMENTS * MIDDLE);
        try {
            final UdpBlasterFloor.Pump pump = run(ch, null, burst);
            long buffers = 0;
            for (Object msg; (msg = ch.readOutbound()) != null; buffers++) {
                assertGsoBuffer(msg, "GSO buffer " + buffers);
            }
            assertEquals(pump.writes, buffers);
            assertTrue(buffers >= 64, "one fill's worth at least: " + buffers);
        } finally {
            ch.finishAndReleaseAll();
            burst.release();
        }
    }

    /** {@code msg} is one GSO buffer of the floor's 15 MIDDLE-sized datagrams to {@link #DEST}; releases it. */
    private static void assertGsoBuffer(Object msg, String what) {
        final SegmentedDatagramPacket gso = assertInstanceOf(SegmentedDatagramPacket.class, msg, what);
        try {
            assertEquals(MIDDLE, gso.segmentSize(), what);
            assertEquals(UdpBlasterFloor.SEGMENTS * MIDDLE, gso.content().readableBytes(), what);
            assertEquals(DEST, gso.recipient(), what);
        } finally {
            gso.release();
        }
    }

    private static ByteBuf zeros(int bytes) {
        return Unpooled.directBuffer(bytes).writeZero(bytes);
    }

    /**
     * Pumps for 50 ms; its loop runs each next fill at once. The channel's write buffer holds a whole fill
     * (64 GSO buffers and their FIRSTs, 4.2 MB; Netty's default high water mark, 64 KiB, would end a fill
     * after one), so the first fill is 64 writes however fast the machine is.
     */
    private static UdpBlasterFloor.Pump run(EmbeddedChannel ch, ByteBuf first, ByteBuf burst)
        throws InterruptedException {
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 << 20, 16 << 20));
        final CountDownLatch done = new CountDownLatch(1);
        final UdpBlasterFloor.Pump pump = new UdpBlasterFloor.Pump(ch, first, burst, MIDDLE, DEST,
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50), done);
        ch.pipeline().addLast(pump);
        pump.fill();
        ch.runPendingTasks();
        assertTrue(done.await(10, TimeUnit.SECONDS), "the pump stops at its end time");
        return pump;
    }
}
