package io.rocelab.lab.switchd;

import io.rocelab.codec.capture.PcapngWriter;
import io.rocelab.fabric.buffer.FramePoolAllocator;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.nic.SoftNic;
import io.rocelab.sw.SoftSwitch;
import io.rocelab.sw.SwitchCounters;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * A {@link SoftSwitch} running on its own real-time owner thread, its ports plugged into what
 * {@link PortSpec}s name, optionally capturing every port into one pcapng (one interface per port).
 * Everything that touches the switch runs on the owner thread; {@link #close()} finishes the
 * capture there, so the file is complete and valid, then closes the ports and the thread.
 */
public final class SwitchDaemon implements AutoCloseable {
    /** Frames the switch builds itself (PFC pauses, flood copies) come from a pool of this many. */
    private static final int POOLED_FRAMES = 256;
    private static final int SMALLEST_FRAME_MTU = 4096;
    private static final int OWNER_TIMEOUT_SECONDS = 10;
    private static final long CAPTURE_FLUSH_NANOS = 1_000_000_000L;

    private final SwitchConfig config;
    private final RealTimeScheduler owner;
    private final SoftSwitch sw;
    private final List<SwitchPort> ports = new ArrayList<>();
    private final Path capturePath;
    private PcapngWriter capture;
    /** sFlow's socket when {@code SFLOW|global} is up with a collector, else null. */
    private io.rocelab.sw.sflow.UdpSflowSink sflowSink;
    private volatile SwitchCounters baseline;
    private volatile boolean closed;

    /**
     * @param config     the switch's validated configuration
     * @param specs      its ports' attachments; each names a configured port, at most once
     * @param captureDir where to write {@code HOSTNAME.pcapng}, or null for no capture
     * @throws IllegalArgumentException in one line, for a port that is not configured or cannot be opened
     * @throws IOException              if the capture cannot be created
     */
    public SwitchDaemon(SwitchConfig config, List<PortSpec> specs, Path captureDir) throws IOException {
        this(config, specs, captureDir, null);
    }

    /**
     * @param lldp the switch's LLDP settings ({@code config_db}'s, {@code LldpTables}); null or
     *             {@code FEATURE|lldp state disabled}: no LLDP
     * @see #SwitchDaemon(SwitchConfig, List, Path)
     */
    public SwitchDaemon(SwitchConfig config, List<PortSpec> specs, Path captureDir,
                        io.rocelab.sw.lldp.LldpSettings lldp) throws IOException {
        this.config = config;
        check(config, specs);
        this.owner = RealTimeScheduler.start("switch-" + config.hostname());
        try {
            int mtu = config.ports().stream().mapToInt(PortConfig::mtu).max().orElse(SMALLEST_FRAME_MTU);
            FramePoolAllocator frames = new FramePoolAllocator(SoftNic.frameSlotBytes(Math.max(mtu, SMALLEST_FRAME_MTU)),
                POOLED_FRAMES);
            this.sw = onOwner(() -> new SoftSwitch(config, owner, frames, System.nanoTime()));
            for (PortSpec s : specs) {
                ports.add(SwitchPort.open(s, owner));
            }
            if (captureDir != null) {
                Files.createDirectories(captureDir);
                this.capturePath = captureDir.resolve(config.hostname() + ".pcapng");
                this.capture = PcapngWriter.create(capturePath);
            } else {
                this.capturePath = null;
            }
            onOwner(() -> {
                if (capture != null) {
                    long epochOffset = System.currentTimeMillis() * 1_000_000L - owner.nanoTime();
                    sw.capture(capture, epochOffset);
                }
                for (SwitchPort p : ports) {
                    sw.attach(p.spec().port(), p.port());
                }
                if (lldp != null && lldp.enabled()) {
                    sw.startLldp(lldp);
                }
                return null;
            });
            if (config.sflow().runs()) {
                // sFlow (SFLOW admin_state up): datagrams to the collectors from a UDP socket of this host
                try {
                    sflowSink = new io.rocelab.sw.sflow.UdpSflowSink();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted opening the sFlow socket", e);
                }
                onOwner(() -> sw.startSflow(sflowSink));
            }
            if (capture != null) {
                owner.schedule(CAPTURE_FLUSH_NANOS, this::flushCapture);
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Every second on the owner thread: what was captured reaches the file (tshark can follow it). */
    private void flushCapture() {
        if (closed) {
            return;
        }
        try {
            capture.flush();
        } catch (IOException e) {
            // the capture counts its own write errors; the next flush or the close reports them
        }
        owner.schedule(CAPTURE_FLUSH_NANOS, this::flushCapture);
    }

    private static void check(SwitchConfig config, List<PortSpec> specs) {
        Set<String> seen = new HashSet<>();
        for (PortSpec s : specs) {
            if (config.portIndex(s.port()) < 0) {
                throw new IllegalArgumentException("--port " + s.port() + ": no such port in the configuration (ports: "
                    + config.ports().stream().map(PortConfig::name).collect(Collectors.joining(", ")) + ")");
            }
            if (!seen.add(s.port())) {
                throw new IllegalArgumentException("--port " + s.port() + " is given twice");
            }
        }
    }

    public SwitchConfig config() {
        return config;
    }

    /** @return the switch; touch it only on its owner thread ({@link #onOwner}) */
    public SoftSwitch softSwitch() {
        return sw;
    }

    /** @return the ports opened, in the order given */
    public List<String> describePorts() {
        List<String> lines = new ArrayList<>();
        for (SwitchPort p : ports) {
            lines.add(p.spec().port() + "  " + p.description());
        }
        return lines;
    }

    /**
     * {@code show ports}: each plugged-in port's attachment and its own counters (frames the
     * interface or socket took and gave, drops before the switch saw a frame), which the switch's
     * counters cannot show.
     */
    public String portAttachments() {
        StringBuilder sb = new StringBuilder(String.format("%11s  %s%n", "Port", "Attachment / its counters"));
        sb.append("-".repeat(60)).append(System.lineSeparator());
        for (SwitchPort p : ports) {
            sb.append(String.format("%11s  %s%n%11s  %s%n", p.spec().port(), p.description(), "", p.counters()));
        }
        return sb.toString();
    }

    /** @return the capture's path, or null */
    public Path capturePath() {
        return capturePath;
    }

    /** @return the counters since the last {@link #clearCounters()}, taken on the owner thread */
    public SwitchCounters counters() {
        SwitchCounters now = sw.countersSnapshot();
        SwitchCounters base = baseline;
        return base == null ? now : now.since(base);
    }

    /** {@code sonic-clear counters}: from now on {@link #counters()} counts from zero. */
    public void clearCounters() {
        baseline = sw.countersSnapshot();
    }

    /**
     * {@code sonic-clear watermark}: the watermark views start again from what the buffers hold now,
     * their persistent-watermark views keep the peak since the switch started.
     */
    public void clearWatermarks() {
        onOwner(() -> {
            sw.mmu().clearWatermarks();
            return null;
        });
    }

    /** Runs {@code what} on the switch's owner thread and waits for its result. */
    public <T> T onOwner(Callable<T> what) {
        if (owner.inOwnerThread()) {
            try {
                return what.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        owner.execute(() -> {
            try {
                f.complete(what.call());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(OWNER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the switch's thread", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the switch's thread did not answer within " + OWNER_TIMEOUT_SECONDS + " s", e);
        }
    }

    /**
     * Finishes the capture on the owner thread (which writes it), then closes the ports and the
     * owner thread. Closing twice does nothing.
     *
     * @throws IOException if the capture could not be finished
     */
    public synchronized void finish() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            // as lldpd stopping: each port's shutdown LLDPDU (TTL 0), so the neighbours forget us at once
            onOwner(() -> {
                if (sw != null && sw.lldp() != null) {
                    sw.lldp().shutdown();
                }
                if (sw != null && sw.sflow() != null) {
                    // the samples gathered so far leave in a last datagram
                    sw.sflow().stop();
                }
                return null;
            });
            onOwner(() -> null);
        } catch (RuntimeException e) {
            // the switch's thread is gone: nothing to say goodbye with
        }
        if (capture != null) {
            try {
                onOwner(() -> {
                    capture.close();
                    return null;
                });
            } catch (IllegalStateException e) {
                failure = e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e);
            }
        }
        for (SwitchPort p : ports) {
            try {
                p.closer().close();
            } catch (Exception e) {
                // closing the rest matters more
            }
        }
        owner.close();
        if (sflowSink != null) {
            sflowSink.close();
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        try {
            finish();
        } catch (IOException e) {
            // finish() reports it to whoever asks
        }
    }
}
