package io.rocelab.sw.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Pfc;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.LinkPort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.tx.TransmitSource;
import io.rocelab.fabric.tx.Transmitter;
import java.util.ArrayList;
import java.util.List;

/**
 * A test host: blasts RoCEv2 frames at line rate (or a set rate), honours received PFC for its
 * priority, counts what it receives (and CE marks), and can itself pause its switch (a PFC storm).
 * Releases every frame it receives. Its {@link Transmitter} pulls the next frame when the wire is
 * free, as a NIC's does.
 */
public final class HostStub implements TransmitSource {
    private final Scheduler scheduler;
    private final LinkPort port;
    private final long speed;
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
    private final ParsedFrame parsed = new ParsedFrame();
    private final Transmitter transmitter;
    private ByteBuf template;
    private int priority = 3;
    private boolean sending;
    private long stopAt = Long.MAX_VALUE;
    private long pausedUntil;
    private long gapNanos;
    private long nextAllowed;
    public long sentFrames;
    public long sentBytes;
    public long rxFrames;
    public long rxBytes;
    public long rxCe;
    /** DSCP of the last data frame received. */
    public int lastDscp = -1;
    public long rxPfc;
    public long rxXon;
    public long pausedNanos;
    /** Times (ns) and quanta of every PFC frame received. */
    public final List<long[]> pfcLog = new ArrayList<>();
    /** A copy of the first PFC frame received, for byte checks (release it!). */
    public ByteBuf firstPfc;
    /** 802.3x PAUSE frames received: {time, quanta}; this host obeys them whatever its priority. */
    public final List<long[]> pauseLog = new ArrayList<>();
    public ByteBuf firstPause;
    private boolean storming;
    private long stormPeriod;

    public HostStub(Scheduler scheduler, LinkPort port, long speedBitsPerSecond) {
        this.scheduler = scheduler;
        this.port = port;
        this.speed = speedBitsPerSecond;
        this.transmitter = new Transmitter(scheduler, port, speedBitsPerSecond, this);
        port.setReceiver((p, f) -> onFrame(f));
    }

    /** Sets the frame to blast: to the router MAC, to {@code dstIp}, DSCP/ECN, UDP source port. */
    public HostStub flow(long srcMac, long dstMac, int srcIp, int dstIp, int dscp, int ecn, int sport, int payload) {
        if (template != null) {
            template.release();
        }
        template = new RoceFrame().ethernet(dstMac, srcMac).ipv4(srcIp, dstIp).udp(sport, 4791).dscpEcn(dscp, ecn)
            .opcode(Opcode.RC_RDMA_WRITE_ONLY).reth(0x1000, 0x42, payload).destQp(0x11).psn(0)
            .payload(new byte[payload]).encode(alloc);
        return this;
    }

    /** @param p the 802.1p priority whose pause this host obeys */
    public HostStub priority(int p) {
        this.priority = p;
        return this;
    }

    /** Sends no faster than one frame per {@code gap} ns (0 = line rate). */
    public HostStub gap(long gap) {
        this.gapNanos = gap;
        return this;
    }

    public void start() {
        sending = true;
        stopAt = Long.MAX_VALUE;
        scheduler.execute(transmitter::kick);
    }

    public void stop() {
        sending = false;
    }

    /** Sends exactly one frame of the current flow now (ignoring pause). */
    public void sendOne() {
        sentFrames++;
        sentBytes += template.readableBytes();
        port.send(template.copy());
    }

    @Override
    public ByteBuf pull(long now) {
        if (!sending || now >= stopAt || pausedUntil > now || nextAllowed > now) {
            return null;
        }
        sentFrames++;
        sentBytes += template.readableBytes();
        nextAllowed = now + gapNanos;
        return template.copy();
    }

    @Override
    public boolean hasWork() {
        return sending;
    }

    @Override
    public long nextReadyNanos(long now) {
        long ready = Math.max(pausedUntil, nextAllowed);
        return sending && now < stopAt && ready > now ? ready : NEVER;
    }

    private void onFrame(ByteBuf f) {
        try {
            if (parsed.parse(f) != null) {
                return;
            }
            if (parsed.kind() == FrameKind.PAUSE) {
                if (firstPause == null) {
                    firstPause = f.copy();
                }
                int q = io.rocelab.codec.header.Pause.quanta(f, parsed.l3Offset());
                long now = scheduler.nanoTime();
                pauseLog.add(new long[] {now, q});
                long until = q == 0 ? now : now + Pfc.quantaToNanos(q, speed);
                if (until > pausedUntil || q == 0) {
                    pausedUntil = until;
                }
                scheduler.execute(transmitter::kick);
                return;
            }
            if (parsed.kind() == FrameKind.PFC) {
                int off = parsed.l3Offset();
                if (firstPfc == null) {
                    firstPfc = f.copy();
                }
                if (Pfc.enabled(f, off, priority)) {
                    int q = Pfc.quanta(f, off, priority);
                    long now = scheduler.nanoTime();
                    pfcLog.add(new long[] {now, q});
                    if (q == 0) {
                        rxXon++;
                        if (pausedUntil > now) {
                            pausedNanos -= pausedUntil - now;
                        }
                        pausedUntil = now;
                    } else {
                        rxPfc++;
                        long until = now + Pfc.quantaToNanos(q, speed);
                        pausedNanos += until - Math.max(now, pausedUntil);
                        pausedUntil = until;
                    }
                    scheduler.execute(transmitter::kick);
                }
                return;
            }
            rxFrames++;
            rxBytes += f.readableBytes();
            lastDscp = parsed.dscp();
            if (parsed.ecn() == 3) {
                rxCe++;
            }
        } finally {
            f.release();
        }
    }

    /** Sends an XOFF for {@code prio} with {@code quanta} now. */
    public void sendPause(int prio, int quanta) {
        ByteBuf frame = alloc.buffer(60);
        frame.writeZero(60);
        io.rocelab.codec.header.Ethernet.write(frame, 0, io.rocelab.codec.header.MacAddress.PAUSE_MULTICAST,
            0x02_00_00_00_aa_aaL, io.rocelab.codec.header.EtherType.MAC_CONTROL);
        int[] q = new int[8];
        q[prio] = quanta;
        Pfc.write(frame, 14, 1 << prio, q);
        port.send(frame);
    }

    /** Sends an 802.3x PAUSE of {@code quanta} now (0: resume). */
    public void sendLinkPause(int quanta) {
        ByteBuf frame = alloc.buffer(60);
        io.rocelab.codec.header.Pause.writeFrame(frame, 0x02_00_00_00_aa_aaL, quanta);
        port.send(frame);
    }

    /** Pauses the switch's priority {@code prio} forever (a PFC storm), repeating every {@code period} ns. */
    public void storm(int prio, long period) {
        storming = true;
        stormPeriod = period;
        stormTick(prio);
    }

    private void stormTick(int prio) {
        if (!storming) {
            return;
        }
        sendPause(prio, 0xFFFF);
        scheduler.schedule(stormPeriod, () -> stormTick(prio));
    }

    public void stopStorm() {
        storming = false;
    }

    /** Releases the template and any saved frame. */
    public void close() {
        if (template != null) {
            template.release();
            template = null;
        }
        if (firstPause != null) {
            firstPause.release();
            firstPause = null;
        }
        if (firstPfc != null) {
            firstPfc.release();
            firstPfc = null;
        }
    }
}
