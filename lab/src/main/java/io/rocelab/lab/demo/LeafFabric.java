package io.rocelab.lab.demo;

import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.nic.SoftNic;
import io.rocelab.perftest.nic.HostPair;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The demo's lab in this process: host-a — leaf — host-b. Each host's NIC and the switch have their
 * own event loop (one owner thread each); each host is joined to its switch port by an in-process
 * link (rate and cable delay modelled, in real time). The switch runs {@code demo/leaf.json}.
 *
 * <p>The frames the switch builds itself (PFC pauses, flood copies) come from a {@link
 * FramePoolAllocator} of its own, as the NICs' frames do, not from Netty's default allocator: Netty
 * 4.2's pool records a JFR event for each chunk it allocates, and the first one in a JVM makes the
 * JDK initialize the Flight Recorder's metadata on the allocating thread, 130-500 ms here. The
 * leaf's first PFC XOFF was that allocation, so the leaf forwarded nothing for longer than host-a's
 * local ACK timeout (67 ms, perftest's {@code -u 14}) and host-a resent its whole window.
 */
final class LeafFabric implements AutoCloseable {
    /** The switch configuration shipped with rocelab. */
    static final String CONFIG_RESOURCE = "/demo/leaf.json";
    /** Where host-a and host-b plug in. */
    static final String PORT_A = "Ethernet0";
    static final String PORT_B = "Ethernet4";
    /** 5 m of cable, as the config's CABLE_LENGTH says. */
    static final long CABLE_DELAY_NANOS = 5 * ConfigLoader.NANOS_PER_METRE;
    /** RoCE's traffic class on the hosts: DSCP 26 (the leaf's lossless class 3) with ECT(0). */
    static final int ROCE_TRAFFIC_CLASS = 26 << 2 | 0b10;
    static final int ACTIVE_MTU = 4096;
    /** Frames with a switch decision kept in the capture beyond the first frames of each test. */
    static final int CAPTURE_DECISIONS = 2000;
    /** Free frames the switch's own pool keeps (it builds few: PFC pauses, flood copies). */
    static final int SWITCH_POOLED_FRAMES = 256;

    static final String HOST_A_IP = "10.0.0.1";
    static final String HOST_B_IP = "10.0.0.2";
    static final String HOST_A_MAC = "02:00:00:00:0a:01";
    static final String HOST_B_MAC = "02:00:00:00:0b:01";

    final SwitchConfig config;
    final long speedBitsPerSecond;
    private final RealTimeScheduler loopA;
    private final RealTimeScheduler loopB;
    private final RealTimeScheduler loopLeaf;
    final SoftSwitch leaf;
    final HostPair hosts;
    /** host-a -- leaf:Ethernet0 (side A host-a, side B the leaf) and host-b -- leaf:Ethernet4. */
    final InProcessLink linkA;
    final InProcessLink linkB;
    private final BoundedCapture capture;

    /**
     * @param capturePath pcapng to write (whole switch, one interface per port), or null
     * @param framesPerPort frames kept per port in each test
     * @throws IOException if the capture cannot be created
     */
    LeafFabric(Path capturePath, int framesPerPort) throws IOException {
        this(loadConfig(), capturePath, framesPerPort);
    }

    /**
     * @param config the switch's configuration, which must have {@link #PORT_A} and {@link #PORT_B}
     */
    LeafFabric(SwitchConfig config, Path capturePath, int framesPerPort) throws IOException {
        this.config = config;
        this.speedBitsPerSecond = config.ports().get(config.portIndex(PORT_A)).speedBitsPerSecond();
        RealTimeScheduler a = null;
        RealTimeScheduler b = null;
        RealTimeScheduler s = null;
        BoundedCapture c = null;
        try {
            a = RealTimeScheduler.start("host-a-nic");
            b = RealTimeScheduler.start("host-b-nic");
            s = RealTimeScheduler.start("leaf");
            InProcessLink linkA = InProcessLink.builder().name("host-a--leaf").portNames("host-a", "leaf:" + PORT_A)
                .rateBitsPerSecond(speedBitsPerSecond).propagationDelayNanos(CABLE_DELAY_NANOS).build(a, s);
            InProcessLink linkB = InProcessLink.builder().name("host-b--leaf").portNames("host-b", "leaf:" + PORT_B)
                .rateBitsPerSecond(config.ports().get(config.portIndex(PORT_B)).speedBitsPerSecond())
                .propagationDelayNanos(CABLE_DELAY_NANOS).build(b, s);
            this.linkA = linkA;
            this.linkB = linkB;
            if (capturePath != null) {
                c = new BoundedCapture(PcapngWriter.create(capturePath), framesPerPort, CAPTURE_DECISIONS);
            }
            BoundedCapture tapInto = c;
            RealTimeScheduler owner = s;
            long epochOffset = System.currentTimeMillis() * 1_000_000L - owner.nanoTime();
            this.leaf = on(s, () -> {
                SoftSwitch sw = new SoftSwitch(config, owner,
                    new FramePoolAllocator(SoftNic.frameSlotBytes(ACTIVE_MTU), SWITCH_POOLED_FRAMES), 26);
                sw.attach(PORT_A, linkA.portB());
                sw.attach(PORT_B, linkB.portB());
                if (tapInto != null) {
                    sw.capture(tapInto, epochOffset);
                }
                return sw;
            });
            this.hosts = new HostPair(new HostPair.Host("host-b", HOST_B_IP, HOST_B_MAC, b, linkB.portA()),
                new HostPair.Host("host-a", HOST_A_IP, HOST_A_MAC, a, linkA.portA()), ACTIVE_MTU, ROCE_TRAFFIC_CLASS);
        } catch (IOException | RuntimeException e) {
            closeQuietly(c);
            for (RealTimeScheduler r : new RealTimeScheduler[] {s, b, a}) {
                if (r != null) {
                    r.close();
                }
            }
            throw e;
        }
        this.loopA = a;
        this.loopB = b;
        this.loopLeaf = s;
        this.capture = c;
    }

    static SwitchConfig loadConfig() {
        try (InputStream in = LeafFabric.class.getResourceAsStream(CONFIG_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("rocelab's jar has no " + CONFIG_RESOURCE);
            }
            return ConfigLoader.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The demo's capture (written on the leaf's thread), or null without one. */
    io.rocelab.codec.capture.CaptureWriter captureWriter() {
        return capture;
    }

    /** The capture keeps the first frames of the next test too. */
    void nextTest() {
        if (capture != null) {
            capture.nextPhase();
        }
    }

    /** Runs {@code what} on the switch's owner thread and waits for it. */
    <T> T onLeaf(Callable<T> what) {
        return on(loopLeaf, what, 10);
    }

    /** Like {@link #onLeaf(Callable)}, waiting up to {@code seconds} (a run in virtual time there). */
    <T> T onLeaf(Callable<T> what, int seconds) {
        return on(loopLeaf, what, seconds);
    }

    /**
     * Flushes and closes the capture on the switch's thread (which writes it).
     *
     * @return frames written and frames left out, or null without a capture
     */
    long[] finishCapture() throws IOException {
        if (capture == null) {
            return null;
        }
        try {
            onLeaf(() -> {
                capture.close();
                return null;
            });
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
        return new long[] {capture.written(), capture.left()};
    }

    @Override
    public void close() {
        try {
            if (capture != null) {
                // the leaf's thread writes the capture: close it there, then stop the loops
                try {
                    onLeaf(() -> {
                        capture.close();
                        return null;
                    });
                } catch (RuntimeException e) {
                    // closing twice does nothing; a loop already gone has nothing left to write
                }
            }
        } finally {
            loopA.close();
            loopB.close();
            loopLeaf.close();
        }
    }

    private static <T> T on(RealTimeScheduler loop, Callable<T> what) {
        return on(loop, what, 10);
    }

    private static <T> T on(RealTimeScheduler loop, Callable<T> what, int seconds) {
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                f.complete(what.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + loop, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(loop + " did not answer within " + seconds + " s", e);
        }
    }

    private static void closeQuietly(BoundedCapture c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                // already failing
            }
        }
    }
}
