package io.rocelab.sw.sflow;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.sflow.CounterRecord;
import io.rocelab.codec.sflow.CounterSample;
import io.rocelab.codec.sflow.EthernetCounters;
import io.rocelab.codec.sflow.FlowSample;
import io.rocelab.codec.sflow.GenericInterfaceCounters;
import io.rocelab.codec.sflow.RawPacketHeader;
import io.rocelab.codec.sflow.SflowCodec;
import io.rocelab.codec.sflow.SflowDatagram;
import io.rocelab.codec.sflow.SflowSample;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SflowConfig;
import io.rocelab.sw.config.SflowTables;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.stats.PortCounters;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A switch's sFlow agent, as SONiC's hsflowd with the ASIC's samplers behind it: each port that
 * {@link SflowConfig#session} samples has a {@link PortSampler} at its rate, fed the frames the port
 * receives (rx), sends (tx) or both; a sample carries the frame's first {@value #HEADER_BYTES} bytes
 * (the SONiC HLD's default sample size) as a raw packet header record. Every
 * {@code polling_interval} seconds each port's counters go out as a counter sample (generic and
 * Ethernet interface records), the ports' polls spread over the interval. Samples gather into a
 * datagram of at most {@value #MAX_DATAGRAM_BYTES} bytes (hsflowd's {@code datagramBytes}) that
 * leaves when full and at least once a second; each datagram goes to every collector.
 *
 * <p>Data sources are ports by ifIndex, numbered as SONiC's SNMP agent numbers them
 * ({@link #ifIndex}). An ingress sample's output interface is 0 (unknown: the sample is taken as the
 * frame comes in, before forwarding, as psample delivers ingress samples); an egress sample is taken as the
 * frame goes on the wire (an ECN mark made at its dequeue is in its header), its input 0 (the
 * switch's transmit path no longer knows it) and its output the port. Time is the scheduler's; owner thread only.
 */
public final class SflowAgent {
    /** Bytes of a sampled frame kept in its raw packet header record (SONiC sFlow HLD: 128). */
    public static final int HEADER_BYTES = 128;
    /** The largest datagram the agent sends (hsflowd's default {@code datagramBytes}). */
    public static final int MAX_DATAGRAM_BYTES = 1400;
    /** Samples waiting in a datagram leave at least this often (hsflowd's one-second tick). */
    public static final long FLUSH_NANOS = 1_000_000_000L;
    /** The datagram header's bytes with an IPv4 agent address. */
    private static final int HEADER_V4 = 28;
    /** ifType ethernetCsmacd (IANAifType-MIB). */
    private static final int IF_TYPE_ETHERNET = 6;
    /** The FCS each frame had on the wire, not in the bytes the switch holds (sFlow's {@code stripped}). */
    private static final int FCS = 4;

    /** What the agent reads of its switch: a port's counters and link, on the owner thread. */
    public interface PortState {
        /** @return the port's live counters */
        PortCounters counters(int port);

        /** @return whether the port's link is up */
        boolean isUp(int port);
    }

    private final SflowConfig config;
    private final Scheduler scheduler;
    private final SflowSink sink;
    private final PortState state;
    private final PortConfig[] ports;
    private final long[] ifIndex;
    private final PortSampler[] samplers;
    private final SflowConfig.PortSampling[] sampling;
    private final long[] counterSequence;
    private final long[] counterSamples;
    private final long[] ingressSamples;
    private final long[] egressSamples;
    private final InetAddress agent;
    private final long startNanos;
    private final List<SflowSample> pending = new ArrayList<>();
    /** Each port's next counter poll, and the next flush: the timers to cancel on {@link #stop()}. */
    private final Cancellable[] polls;
    private Cancellable flushTimer;
    private int pendingBytes;
    private long datagramSequence;
    private long datagramsSent;
    private long bytesSent;
    private boolean stopped;

    /**
     * @param switchConfig the switch's configuration, its {@link SwitchConfig#sflow()} among it
     * @param scheduler    the switch's owner
     * @param seed         seed of the samplers (port i's is derived from it and i)
     * @param state        the switch's counters and links
     * @param sink         where the datagrams go
     */
    public SflowAgent(SwitchConfig switchConfig, Scheduler scheduler, long seed, PortState state, SflowSink sink) {
        this.config = switchConfig.sflow();
        this.scheduler = scheduler;
        this.sink = sink;
        this.state = state;
        this.ports = switchConfig.ports().toArray(new PortConfig[0]);
        int n = ports.length;
        this.ifIndex = new long[n];
        this.samplers = new PortSampler[n];
        this.sampling = new SflowConfig.PortSampling[n];
        this.counterSequence = new long[n];
        this.counterSamples = new long[n];
        this.ingressSamples = new long[n];
        this.egressSamples = new long[n];
        this.polls = new Cancellable[n];
        for (int i = 0; i < n; i++) {
            ifIndex[i] = ifIndex(ports[i].name(), i);
            sampling[i] = config.session(ports[i].name(), ports[i].speedBitsPerSecond());
            if (sampling[i] != null && sampling[i].adminUp()) {
                samplers[i] = new PortSampler(sampling[i].sampleRate(), seed * 0x9E37_79B9_7F4A_7C15L + i);
            }
        }
        InetAddress a = SflowTables.address(config.agentAddress());
        this.agent = a == null ? InetAddress.getLoopbackAddress() : a;
        this.startNanos = scheduler.nanoTime();
    }

    /**
     * The ifIndex of a port, as sonic-snmpagent numbers SONiC's interfaces ({@code port_util.get_index}:
     * Ethernet N is N + 1); a port named otherwise is its position + 1.
     */
    public static long ifIndex(String name, int position) {
        if (name.matches("Ethernet\\d{1,7}")) {
            return Long.parseLong(name.substring(8)) + 1;
        }
        return position + 1L;
    }

    /** Starts the counter polls and the datagram flush. Owner thread, once. */
    public void start() {
        int n = ports.length;
        if (config.pollingInterval() > 0 && n > 0) {
            long interval = config.pollingInterval() * 1_000_000_000L;
            for (int i = 0; i < n; i++) {
                int port = i;
                // spread over the interval: port i first at (i + 1) / n of it
                polls[i] = scheduler.schedule(interval * (i + 1) / n, () -> poll(port, interval));
            }
        }
        flushTimer = scheduler.schedule(FLUSH_NANOS, this::tick);
    }

    /** Sends what is pending and stops the timers: the switch is stopping. Owner thread. */
    public void stop() {
        if (stopped) {
            return;
        }
        flush();
        stopped = true;
        for (Cancellable c : polls) {
            if (c != null) {
                c.cancel();
            }
        }
        if (flushTimer != null) {
            flushTimer.cancel();
        }
    }

    private void tick() {
        if (stopped) {
            return;
        }
        flush();
        flushTimer = scheduler.schedule(FLUSH_NANOS, this::tick);
    }

    private void poll(int port, long interval) {
        if (stopped) {
            return;
        }
        add(counterSample(port));
        polls[port] = scheduler.schedule(interval, () -> poll(port, interval));
    }

    /** A frame came in on {@code port} (before the switch's decisions): sampled if rx and its turn. */
    public void ingress(int port, ByteBuf frame) {
        PortSampler s = samplers[port];
        if (s != null && sampling[port].direction().ingress() && s.offer()) {
            ingressSamples[port]++;
            add(flowSample(port, s, frame, ifIndex[port], 0));
        }
    }

    /**
     * A frame is leaving by {@code port}, as it goes on the wire (ECN marks made): sampled if tx and
     * its turn. IEEE 802.1Q link-local frames (PFC, PAUSE, LLDP, LACP: 01-80-C2-00-00-0x, which
     * the MAC and slow-protocol layers below the forwarding pipeline make) are not offered.
     */
    public void egress(int port, ByteBuf frame) {
        PortSampler s = samplers[port];
        if (s == null || !sampling[port].direction().egress() || frame.readableBytes() < 8
                || (frame.getLong(frame.readerIndex()) >>> 16 & ~0xFL) == 0x0180_C200_0000L) {
            return;
        }
        if (s.offer()) {
            egressSamples[port]++;
            add(flowSample(port, s, frame, 0, ifIndex[port]));
        }
    }

    private FlowSample flowSample(int port, PortSampler s, ByteBuf frame, long input, long output) {
        int length = frame.readableBytes();
        byte[] header = new byte[Math.min(HEADER_BYTES, length)];
        frame.getBytes(frame.readerIndex(), header);
        RawPacketHeader record = new RawPacketHeader(SflowCodec.HEADER_ETHERNET, length + FCS, FCS, header);
        return new FlowSample(s.taken() & SflowCodec.UNKNOWN, sourceId(port), s.rate(), s.pool() & SflowCodec.UNKNOWN,
            0, input, output, List.of(record));
    }

    private long sourceId(int port) {
        return (long) SflowCodec.SOURCE_IFINDEX << 24 | ifIndex[port] & 0xFF_FFFFL;
    }

    /**
     * A port's counters as the generic interface record says them: in octets and packets as the
     * port counts them (without FCS), the good ones as unicast (rocelab does not count by cast:
     * multicast and broadcast are unknown), discards and errors as {@code show interfaces counters}
     * has RX_DRP and RX_ERR + RX_OVR, out discards as its TX_DRP (queue drops); no transmit errors.
     */
    private CounterSample counterSample(int port) {
        PortCounters c = state.counters(port);
        long errors = c.drops(DropReason.UNDERSIZE) + c.drops(DropReason.MALFORMED);
        long oversize = c.drops(DropReason.OVERSIZE);
        long discards = c.totalDrops() - errors - oversize;
        long queueDrops = 0;
        for (long d : c.queueDropPackets) {
            queueDrops += d;
        }
        long mask = SflowCodec.UNKNOWN;
        boolean up = state.isUp(port);
        GenericInterfaceCounters g = new GenericInterfaceCounters(ifIndex[port], IF_TYPE_ETHERNET,
            ports[port].speedBitsPerSecond(), 1, 1 | (up ? 2 : 0), c.rxBytes, (c.rxFrames - errors - oversize) & mask,
            SflowCodec.UNKNOWN, SflowCodec.UNKNOWN, discards & mask, (errors + oversize) & mask, SflowCodec.UNKNOWN,
            c.txBytes, c.txFrames & mask, SflowCodec.UNKNOWN, SflowCodec.UNKNOWN, queueDrops & mask, 0, 1);
        EthernetCounters e = new EthernetCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, oversize & mask, 0, 0);
        counterSamples[port]++;
        return new CounterSample(++counterSequence[port] & mask, sourceId(port), List.<CounterRecord>of(g, e));
    }

    private void add(SflowSample s) {
        if (stopped) {
            return;
        }
        int bytes = SflowCodec.encodedLength(s);
        if (!pending.isEmpty() && headerBytes() + pendingBytes + bytes > MAX_DATAGRAM_BYTES) {
            flush();
        }
        pending.add(s);
        pendingBytes += bytes;
    }

    private int headerBytes() {
        return HEADER_V4 + (agent.getAddress().length - 4);
    }

    /** Sends the pending samples as one datagram to every collector. */
    public void flush() {
        if (pending.isEmpty() || stopped) {
            return;
        }
        long now = scheduler.nanoTime();
        SflowDatagram d = new SflowDatagram(agent, 0, ++datagramSequence & SflowCodec.UNKNOWN,
            ((now - startNanos) / 1_000_000L) & SflowCodec.UNKNOWN, pending);
        byte[] bytes = SflowCodec.encode(d);
        pending.clear();
        pendingBytes = 0;
        for (SflowConfig.Collector c : config.collectors()) {
            sink.send(c, bytes, now);
            datagramsSent++;
            bytesSent += bytes.length;
        }
    }

    /** @return the agent's counters: datagrams sent, and per port samples taken; owner thread */
    public SflowCounters counters() {
        List<SflowCounters.Port> out = new ArrayList<>();
        for (int i = 0; i < ports.length; i++) {
            PortSampler s = samplers[i];
            out.add(new SflowCounters.Port(ports[i].name(), ifIndex[i], s == null ? 0 : s.rate(),
                s == null ? 0 : s.pool(), ingressSamples[i], egressSamples[i], counterSamples[i]));
        }
        return new SflowCounters(agent.getHostAddress(), datagramSequence, datagramsSent, bytesSent, out);
    }

    /** @return the configuration the agent runs */
    public SflowConfig config() {
        return config;
    }
}
