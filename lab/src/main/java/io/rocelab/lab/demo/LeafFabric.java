package io.rocelab.lab.demo;

import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.perftest.nic.HostPair;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * The demo's lab in this process, a {@link Topology}: host-a — leaf — host-b, 5 m cables at the
 * leaf's port speed, the leaf running {@code demo/leaf.json}, brought to life as a real-time
 * {@link Fabric} whose nodes share {@link #EVENT_LOOPS} event loop (the two NICs and the leaf hand
 * frames to each other on one thread, without waking another: on a machine with two cores and
 * perftest's own threads, a wake-up per frame is most of what a frame costs). The hosts are bare:
 * each perftest run opens its NIC on the host's port, as perftest opens the device.
 *
 * <p>The frames the switch builds itself (PFC pauses, flood copies) come from a frame pool of its own
 * (the fabric gives every switch one), not from Netty's default allocator: Netty 4.2's pool records a
 * JFR event for each chunk it allocates, and the first one in a JVM makes the JDK initialize the
 * Flight Recorder's metadata on the allocating thread, 130-500 ms here; the leaf's first PFC XOFF was
 * that allocation once, and host-a resent its whole window.
 */
final class LeafFabric implements AutoCloseable {
    /** The switch configuration shipped with rocelab. */
    static final String CONFIG_RESOURCE = "/demo/leaf.json";
    /** Where host-a and host-b plug in. */
    static final String PORT_A = "Ethernet0";
    static final String PORT_B = "Ethernet4";
    /** 5 m of cable, as the config's CABLE_LENGTH says. */
    static final int CABLE_METERS = 5;
    static final long CABLE_DELAY_NANOS = CABLE_METERS * ConfigLoader.NANOS_PER_METRE;
    /** RoCE's traffic class on the hosts: DSCP 26 (the leaf's lossless class 3) with ECT(0). */
    static final int ROCE_TRAFFIC_CLASS = 26 << 2 | 0b10;
    static final int ACTIVE_MTU = 4096;
    /** Frames with a switch decision kept in the capture beyond the first frames of each test. */
    static final int CAPTURE_DECISIONS = 2000;

    static final String HOST_A_IP = "10.0.0.1";
    static final String HOST_B_IP = "10.0.0.2";
    static final String HOST_A_MAC = "02:00:00:00:0a:01";
    static final String HOST_B_MAC = "02:00:00:00:0b:01";
    static final String LEAF = "leaf";
    /** Event loops the demo's nodes share. */
    static final int EVENT_LOOPS = 1;

    final SwitchConfig config;
    final long speedBitsPerSecond;
    final Fabric fabric;
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
        Fabric f = Fabric.builder(topology(config)).mode(FabricMode.REAL_TIME).eventLoops(EVENT_LOOPS).bareHosts()
            .start();
        BoundedCapture c = null;
        try {
            if (capturePath != null) {
                c = new BoundedCapture(PcapngWriter.create(capturePath), framesPerPort, CAPTURE_DECISIONS);
            }
            BoundedCapture tapInto = c;
            SoftSwitch sw = f.softSwitch(LEAF);
            long epochOffset = System.currentTimeMillis() * 1_000_000L - f.scheduler(LEAF).nanoTime();
            if (tapInto != null) {
                f.onOwner(LEAF, () -> {
                    sw.capture(tapInto, epochOffset);
                    return null;
                });
            }
            this.leaf = sw;
            this.linkA = f.linkAt("host-a");
            this.linkB = f.linkAt("host-b");
            this.hosts = new HostPair(host(f, "host-b"), host(f, "host-a"), ACTIVE_MTU, ROCE_TRAFFIC_CLASS);
        } catch (IOException | RuntimeException e) {
            closeQuietly(c);
            f.close();
            throw e;
        }
        this.fabric = f;
        this.capture = c;
    }

    /** host-a and host-b on the leaf's {@link #PORT_A} and {@link #PORT_B}, 5 m of cable each. */
    static Topology topology(SwitchConfig config) {
        return Topology.builder()
            .host(Host.builder("host-a").ipv4(HOST_A_IP).mac(HOST_A_MAC).activeMtu(ACTIVE_MTU).build())
            .host(Host.builder("host-b").ipv4(HOST_B_IP).mac(HOST_B_MAC).activeMtu(ACTIVE_MTU).build())
            .switchNode(LEAF, config)
            .link(Link.between("host-a", LEAF + ":" + PORT_A).cableMeters(CABLE_METERS).build())
            .link(Link.between("host-b", LEAF + ":" + PORT_B).cableMeters(CABLE_METERS).build())
            .build();
    }

    private static HostPair.Host host(Fabric f, String name) {
        Host h = f.topology().host(name);
        return new HostPair.Host(name, Ipv4.toString(h.ipv4()), MacAddress.toString(h.mac()),
            f.scheduler(name), f.hostPort(name));
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
        return fabric.onOwner(LEAF, what);
    }

    /** Like {@link #onLeaf(Callable)}, waiting up to {@code seconds} (a run in virtual time there). */
    <T> T onLeaf(Callable<T> what, int seconds) {
        return fabric.onOwner(LEAF, what, seconds);
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
            fabric.close();
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
