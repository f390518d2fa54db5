package io.rocelab.lab.interop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.capture.PcapWriter;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.fabric.udp.UdpPortCounter;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A two-port Ethernet relay between two qemu VMs on {@code -netdev socket,udp=} links that pushes
 * every RoCEv2 frame through the project's codec: parse ({@link ParsedFrame}), check the ICRC
 * ({@link Icrc}), decode to a value ({@link RoceFrame#decode}), drop the decoded ICRC, encode again
 * and forward the <em>re-encoded</em> bytes. Other frames (ARP, IPv6 ND, the tools' TCP exchange)
 * pass unchanged. So when Linux rxe on both sides completes its transfers through this relay, rxe
 * has accepted frames built by {@link RoceFrame#encode}.
 *
 * <p>Everything forwarded is written to a classic pcap. Both ports and the capture live on one
 * {@link RealTimeScheduler} thread, which owns all the state below; the counters are read through
 * {@link #stats()}, which runs on that thread.
 */
final class ReencodingRelay implements AutoCloseable {
    /** How many re-encoding mismatches / errors are kept verbatim for the failure message. */
    private static final int MAX_SAMPLES = 5;
    /** Frame bytes per second towards each VM, in Gb/s, and the burst after an idle time. */
    private static final double PACE_GBPS = 0.1;
    private static final int PACE_BURST_BYTES = 16 * 1024;
    /** Frames that may wait to be sent towards a VM: four TX depths of 64 KB messages at MTU 1024. */
    private static final int BACKLOG_FRAMES = 4 * 128 * 64;

    private final RealTimeScheduler scheduler;
    private final UdpFramePort left;
    private final UdpFramePort right;
    private final PcapWriter pcap;
    private final Path pcapPath;
    private final long epochNanosAtStart;
    private final long nanoTimeAtStart;

    // owned by the scheduler's thread
    private final ParsedFrame parsed = new ParsedFrame();
    private final Icrc icrc = new Icrc();
    private final Stats stats = new Stats();

    /**
     * @param leftVmPort  UDP port on 127.0.0.1 where the left VM's qemu receives (its localaddr)
     * @param rightVmPort the same for the right VM
     * @param pcapFile    capture of every forwarded frame
     */
    /**
     * A port towards a VM, paced: rxe in one VM sends perftest's whole TX depth at once, faster than
     * the other VM, busy under TCG, reads its qemu socket; bursts of about a thousand frames were
     * lost there at load 10, and rxe-to-rxe recovery from such losses once ended ib_send_bw with
     * IBV_WC_REM_INV_REQ_ERR. Paced below the VM's pace (as RocelabVsRxeInteropTest paces rocelab's
     * NIC), the frames wait in this port's send queue, which is deep enough for a TX depth of 64 KB
     * messages, instead of being lost.
     */
    private static UdpFramePort.Builder towardsVm(String name, int vmPort) {
        return UdpFramePort.builder().name(name).localPort(0).remotePort(vmPort)
                .transmitRate(PACE_GBPS, PACE_BURST_BYTES).receiveBacklog(BACKLOG_FRAMES);
    }

    ReencodingRelay(int leftVmPort, int rightVmPort, Path pcapFile) throws IOException {
        Instant now = Instant.now();
        this.epochNanosAtStart = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.nanoTimeAtStart = System.nanoTime();
        this.pcapPath = pcapFile;
        this.scheduler = RealTimeScheduler.start("interop-relay");
        UdpFramePort l = null;
        UdpFramePort r = null;
        PcapWriter w = null;
        try {
            l = towardsVm("relay-left", leftVmPort).open(scheduler);
            r = towardsVm("relay-right", rightVmPort).open(scheduler);
            w = PcapWriter.create(pcapFile);
            w.addInterface("relay", LinkType.ETHERNET, 0, 0, null);
        } catch (IOException | RuntimeException e) {
            closeQuietly(l);
            closeQuietly(r);
            if (w != null) {
                w.close();
            }
            scheduler.close();
            throw e;
        }
        this.left = l;
        this.right = r;
        this.pcap = w;
        left.setReceiver(this::onFrame);
        right.setReceiver(this::onFrame);
    }

    /** The port the left VM's qemu must send to (its {@code udp=} port). */
    int leftPort() {
        return left.localAddress().getPort();
    }

    /** The port the right VM's qemu must send to. */
    int rightPort() {
        return right.localAddress().getPort();
    }

    Path pcapPath() {
        return pcapPath;
    }

    /** On the scheduler's thread; owns {@code frame}. */
    private void onFrame(FramePort from, ByteBuf frame) {
        UdpFramePort to = from == left ? right : left;
        ByteBuf out = frame;
        try {
            stats.frames++;
            DecodeError error = parsed.parse(frame);
            if (parsed.isRoce()) {
                stats.roce++;
                if (error != null) {
                    stats.malformed++;
                    stats.sample("malformed RoCEv2 frame (" + error.description() + "): " + ByteBufUtil.hexDump(frame));
                } else {
                    out = reencode(frame);
                }
            }
            pcap.write(0, epochNanosAtStart + (System.nanoTime() - nanoTimeAtStart), out, null);
        } catch (IOException | RuntimeException e) {
            stats.errors++;
            stats.sample("relay error: " + e);
        } finally {
            if (out != frame) {
                frame.release();
            }
            to.send(out);
        }
    }

    /** Returns a new buffer with the codec's encoding of the parsed RoCEv2 frame. */
    private ByteBuf reencode(ByteBuf original) {
        if (!icrc.verify(parsed)) {
            stats.badIcrc++;
            stats.sample(String.format("bad ICRC in the VM's frame: carried %08x, computed %08x: %s", parsed.icrc(),
                    icrc.compute(parsed), ByteBufUtil.hexDump(original)));
        }
        // management datagrams (rdma_cm's CM MADs) go to QP1: count them apart from application UD
        String key = (parsed.ipVersion() == 6 ? "IPv6 " : "IPv4 ") + (parsed.destQp() == 1 ? "QP1 " : "")
                + parsed.opcode().name();
        stats.opcodes.merge(key, 1L, Long::sum);
        if (parsed.ipVersion() == 6) {
            stats.roceIpv6++;
        }
        RoceFrame value = RoceFrame.decode(parsed).recomputeIcrc();
        ByteBuf encoded = value.encode(original.alloc());
        if (ByteBufUtil.equals(encoded, original)) {
            stats.identical++;
        } else {
            stats.mismatches++;
            stats.sample(describeMismatch(original, encoded));
        }
        return encoded;
    }

    private static String describeMismatch(ByteBuf original, ByteBuf encoded) {
        int a = original.readerIndex();
        int b = encoded.readerIndex();
        int n = Math.min(original.readableBytes(), encoded.readableBytes());
        int at = 0;
        while (at < n && original.getByte(a + at) == encoded.getByte(b + at)) {
            at++;
        }
        return "re-encoded frame differs from rxe's at byte " + at + " (lengths " + original.readableBytes() + " / "
                + encoded.readableBytes() + ")\n    rxe:     " + ByteBufUtil.hexDump(original)
                + "\n    encoded: " + ByteBufUtil.hexDump(encoded);
    }

    /** A copy of the counters, taken on the relay's thread. */
    Snapshot stats() {
        try {
            return scheduler.eventLoop().submit(() -> stats.snapshot(left, right)).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the relay's counters", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the relay's counters", e);
        }
    }

    /** Closes both ports, then the capture, then the relay's thread. */
    @Override
    public void close() throws IOException {
        closeQuietly(left);
        closeQuietly(right);
        try {
            scheduler.eventLoop().submit(() -> {
                pcap.close();
                return null;
            }).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IOException("closing the capture " + pcapPath + " failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("closing the capture timed out", e);
        } finally {
            scheduler.close();
        }
    }

    private static void closeQuietly(UdpFramePort p) {
        if (p != null) {
            p.close();
        }
    }

    /** Mutable counters; touched only on the relay's thread. */
    private static final class Stats {
        long frames;
        long roce;
        long roceIpv6;
        long malformed;
        long badIcrc;
        long identical;
        long mismatches;
        long errors;
        final Map<String, Long> opcodes = new TreeMap<>();
        final List<String> samples = new ArrayList<>();

        void sample(String s) {
            if (samples.size() < MAX_SAMPLES) {
                samples.add(s);
            }
        }

        Snapshot snapshot(UdpFramePort l, UdpFramePort r) {
            Map<String, Long> drops = new TreeMap<>();
            for (UdpFramePort p : List.of(l, r)) {
                p.counters().snapshot().forEach((c, v) -> {
                    if (v != 0 && c != UdpPortCounter.FRAMES_SENT && c != UdpPortCounter.BYTES_SENT
                            && c != UdpPortCounter.FRAMES_RECEIVED && c != UdpPortCounter.BYTES_RECEIVED) {
                        drops.put(p.name() + " " + c, v);
                    }
                });
            }
            return new Snapshot(frames, roce, roceIpv6, malformed, badIcrc, identical, mismatches, errors,
                    Map.copyOf(opcodes), List.copyOf(samples), Map.copyOf(drops));
        }
    }

    /**
     * What the relay saw.
     *
     * @param frames     all frames forwarded
     * @param roce       RoCEv2 frames (UDP destination port 4791)
     * @param roceIpv6   of which over IPv6
     * @param malformed  RoCEv2 frames the codec could not parse (forwarded unchanged)
     * @param badIcrc    RoCEv2 frames whose ICRC, as sent by rxe, the codec computes differently
     * @param identical  re-encoded frames equal to rxe's, byte for byte
     * @param mismatches re-encoded frames that differ from rxe's (the re-encoded one was forwarded)
     * @param errors     exceptions while relaying
     * @param opcodes    frame count per "IPv4 RC_SEND_ONLY"-style key ("IPv4 QP1 UD_SEND_ONLY" for MADs)
     * @param samples    the first problems, verbatim
     * @param portDrops  non-zero drop and error counters of the two UDP ports
     */
    record Snapshot(long frames, long roce, long roceIpv6, long malformed, long badIcrc, long identical,
                    long mismatches, long errors, Map<String, Long> opcodes, List<String> samples,
                    Map<String, Long> portDrops) {

        long count(String ipVersionAndOpcodePrefix) {
            return opcodes.entrySet().stream().filter(e -> e.getKey().startsWith(ipVersionAndOpcodePrefix))
                    .mapToLong(Map.Entry::getValue).sum();
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder();
            s.append(String.format("relay: %d frames, %d RoCEv2 (%d over IPv6), %d re-encoded identical, %d differed, "
                    + "%d bad ICRC, %d malformed, %d errors%n", frames, roce, roceIpv6, identical, mismatches,
                    badIcrc, malformed, errors));
            opcodes.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> s.append(String.format("  %-40s %8d%n", e.getKey(), e.getValue())));
            if (!portDrops.isEmpty()) {
                s.append("  port drops/errors: ").append(new TreeMap<>(portDrops)).append('\n');
            }
            for (String sample : samples) {
                s.append("  ").append(sample).append('\n');
            }
            return s.toString();
        }
    }
}
