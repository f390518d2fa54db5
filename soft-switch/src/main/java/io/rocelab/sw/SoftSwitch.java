package io.rocelab.sw;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.header.EtherType;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.capture.SwitchCapture;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.Route6Config;
import io.rocelab.sw.config.RouteConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.egress.EgressHooks;
import io.rocelab.sw.egress.EgressPort;
import io.rocelab.sw.forward.EcmpGroup;
import io.rocelab.sw.forward.FdbTable;
import io.rocelab.sw.forward.ForwardStage;
import io.rocelab.sw.forward.LagHash;
import io.rocelab.sw.forward.LoadBalancing;
import io.rocelab.sw.forward.PortView;
import io.rocelab.sw.forward.Route6Table;
import io.rocelab.sw.forward.RouteTable;
import io.rocelab.sw.lag.LagGroup;
import io.rocelab.sw.lag.PortChannels;
import io.rocelab.sw.lag.SwitchLacp;
import io.rocelab.codec.header.Lacpdu;
import io.rocelab.fabric.lag.LacpActor;
import io.rocelab.sw.forward.PeerLinkRules;
import io.rocelab.sw.mlag.MlagMessage;
import io.rocelab.sw.mlag.MlagPeer;
import io.rocelab.sw.mmu.Mmu;
import io.rocelab.sw.mmu.PauseGenerator;
import io.rocelab.sw.mmu.PfcGenerator;
import io.rocelab.sw.pfcwd.PfcWatchdog;
import io.rocelab.sw.pipeline.ClassifyStage;
import io.rocelab.sw.pipeline.ContextPool;
import io.rocelab.sw.pipeline.DropReason;
import io.rocelab.sw.pipeline.FrameSizeStage;
import io.rocelab.sw.pipeline.PacketContext;
import io.rocelab.sw.pipeline.TaskClock;
import io.rocelab.sw.pipeline.ParseStage;
import io.rocelab.sw.pipeline.VlanStage;
import io.rocelab.sw.pipeline.DscpRemarkStage;
import io.rocelab.sw.acl.AclStage;
import io.rocelab.sw.pfcwd.QueueWatch;
import io.rocelab.sw.routing.BgpSpeaker;
import io.rocelab.sw.routing.SwitchFib;
import io.rocelab.sw.stats.FdbCounters;
import io.rocelab.sw.stats.PortCounters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A software datacenter switch configured for RoCE: frame size checks (runts and frames over the
 * port MTU are dropped), parse, classify, forward (a bounded FDB, aged in the background), buffer admission
 * (MMU with PFC), egress queues, WRED/ECN at dequeue, ETS scheduling and a line-rate shaper per
 * port, plus the PFC watchdog, SONiC-shaped counters and capture taps (pcapng of the whole switch,
 * classic pcap per port).
 *
 * <p>Threading: one owner, the {@link Scheduler} given here. Attach ports whose owner is the same
 * scheduler (an {@code InProcessLink} built on it, or a {@code UdpFramePort} on its event loop):
 * received frames then arrive on the owner thread and all switch state is touched only there.
 *
 * <p>Ownership: every frame a port delivers is either sent on or released, exactly once.
 */
public final class SoftSwitch implements FramePortReceiver, PortView, EgressHooks {
    private final SwitchConfig config;
    private final Scheduler scheduler;
    private final PortConfig[] portConfigs;
    private final PortCounters[] counters;
    private final EgressPort[] egress;
    private final TaskClock clock;
    private final ContextPool contexts = new ContextPool();
    private final FrameSizeStage frameSize;
    private final ParseStage parse = new ParseStage();
    private final VlanStage vlan;
    private final ClassifyStage classify;
    private final AclStage acl;
    private final DscpRemarkStage dscpRemark;
    private final ForwardStage forward;
    private final Mmu mmu;
    private final PfcGenerator pfc;
    /** 802.3x PAUSE for the ports with {@code global_flow_control tx|both}. */
    private final PauseGenerator pause;
    private final PfcWatchdog watchdog;
    private final FdbTable fdb;
    private final FramePort[] ports;
    private final PortChannels lags;
    private final SwitchLacp lacp;
    private final MlagPeer mlag;
    private final PeerLinkRules peerRules;
    /** The eBGP speaker, or null: static routes only. */
    private final BgpSpeaker bgp;
    private static final int SNAPSHOT_TIMEOUT_SECONDS = 5;
    private SwitchCapture[] taps = new SwitchCapture[0];
    /** LLDP on every port once {@link #startLldp} is called, else null (no LLDP). */
    private io.rocelab.sw.lldp.SwitchLldp lldp;
    /** sFlow once {@link #startSflow} is called, else null (no sampling). */
    private io.rocelab.sw.sflow.SflowAgent sflow;
    private final ByteBufAllocator alloc;
    private final long seed;
    /** The VXLAN tunnel endpoint ({@code VXLAN_TUNNEL}), or null: no tunnel. */
    private final io.rocelab.sw.vxlan.Vtep vtep;

    /**
     * @param config    a validated configuration
     * @param scheduler the switch's owner
     * @param alloc     allocator for the frames the switch creates (PFC, flood copies)
     * @param seed      seed of the switch's random decisions (WRED)
     */
    public SoftSwitch(SwitchConfig config, Scheduler scheduler, ByteBufAllocator alloc, long seed) {
        this.config = Objects.requireNonNull(config, "config");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.alloc = alloc;
        this.seed = seed;
        this.clock = new TaskClock(scheduler);
        int n = config.ports().size();
        this.portConfigs = config.ports().toArray(new PortConfig[0]);
        this.ports = new FramePort[n];
        this.counters = new PortCounters[n];
        this.egress = new EgressPort[n];
        long[] macs = new long[n];
        for (int i = 0; i < n; i++) {
            counters[i] = new PortCounters();
            egress[i] = new EgressPort(i, portConfigs[i], scheduler, clock, this, counters[i], seed + i);
            macs[i] = config.routerMac();
        }
        this.frameSize = new FrameSizeStage(portConfigs);
        this.classify = new ClassifyStage(portConfigs);
        this.vlan = new VlanStage(portConfigs, alloc);
        this.acl = new AclStage(config, this::mirror);
        this.dscpRemark = new DscpRemarkStage(portConfigs);
        this.fdb = new FdbTable(config.fdbAgingNanos(), config.fdbTableSize(), scheduler);
        this.lags = new PortChannels(config);
        RouteTable routes = new RouteTable();
        for (RouteConfig r : config.routes()) {
            routes.add(r.prefix(), r.length(), group(config, r.nextHops()));
        }
        Route6Table routes6 = new Route6Table();
        for (Route6Config r : config.routes6()) {
            routes6.add(r.prefixHigh(), r.prefixLow(), r.length(), group(config, r.nextHops()));
        }
        this.bgp = config.bgp() == null ? null : SwitchFib.speaker(config, routes, routes6, scheduler, alloc,
            new io.rocelab.sw.routing.ControlPlane() {
                @Override
                public boolean isUp(int port) {
                    return SoftSwitch.this.isUp(port);
                }

                @Override
                public void send(int port, ByteBuf frame, String comment) {
                    sendControl(port, frame, comment);
                }
            }, seed);
        this.forward = new ForwardStage(config.routerMac(), config.ecmpHashSeed(), fdb, routes, routes6,
            new LoadBalancing(config, this), this, lags);
        this.pfc = new PfcGenerator(scheduler, portConfigs, macs, config.pfcQuanta(), this::sendPfc, alloc);
        this.pause = new PauseGenerator(scheduler, portConfigs, macs, config.pfcQuanta(), this::sendPause, alloc);
        this.mmu = new Mmu(config, pfc, pause);
        this.watchdog = new PfcWatchdog(scheduler, portConfigs, egress, counters, config.pfcWdPollNanos());
        this.mlag = config.mclag() == null ? null
            : new MlagPeer(config, lags, fdb, scheduler, alloc, this::sendOnPeerLink, this::isUp);
        this.peerRules = mlag == null ? PeerLinkRules.NONE : mlag;
        this.vtep = config.vxlan().isEmpty() ? null
            : new io.rocelab.sw.vxlan.Vtep(config.vxlan(), config.ports(), config.routerMac(), config.ecmpHashSeed(),
                config.fdbAgingNanos());
        forward.setPeerLinkRules(peerRules);
        // an MLAG pair answers LACP on its shared port channels as one system, its ports numbered apart
        this.lacp = new SwitchLacp(config, lags, scheduler, alloc,
            g -> mlag != null && mlag.isShared(g.iface()) ? config.mclag().systemMac() : config.routerMac(),
            mlag != null && !config.mclag().lowerAddress() ? SwitchLacp.MLAG_PORT_OFFSET : 0, this::sendLacp,
            this::memberStateChanged);
    }

    private static EcmpGroup group(SwitchConfig config, List<RouteConfig.NextHop> hops) {
        int[] ps = new int[hops.size()];
        long[] ms = new long[ps.length];
        for (int i = 0; i < ps.length; i++) {
            ps[i] = config.interfaceIndex(hops.get(i).port());
            ms[i] = hops.get(i).mac();
        }
        return new EcmpGroup(ps, ms);
    }

    /**
     * Connects a port and starts the watchdog. Call on the owner thread (or before it runs).
     *
     * @param name the configured port name, e.g. {@code Ethernet0}
     * @param port the transmitter/receiver; its receiver is replaced by this switch
     */
    public void attach(String name, FramePort port) {
        int i = config.portIndex(name);
        if (i < 0) {
            throw new IllegalArgumentException("no port '" + name + "' in the configuration");
        }
        ports[i] = port;
        egress[i].attach(port);
        port.setReceiver((p, frame) -> receive(i, frame));
        port.addLinkStateListener((p, up) -> linkStateChanged(i, up));
        LagGroup lag = lags.groupOfPort(i);
        LacpActor actor = lacp.actor(i);
        if (actor != null) {
            // admin_status down: the member takes no part in LACP, as teamd stops
            actor.linkStateChanged(port.isUp() && lag.config().adminUp());
        } else if (lag != null && port.isUp()) {
            memberStateChanged(lag, i, true, true);
        }
        forward.linkStateChanged();
        if (lldp != null) {
            lldp.linkStateChanged(i, port.isUp());
        }
        watchdog.start();
        if (bgp != null) {
            // once every port of the switch (and, on a shared loop, of its neighbours) is attached
            scheduler.execute(bgp::start);
        }
    }

    /**
     * Taps every port into a capture (pcapng: one interface per port, in port order, decisions as
     * packet comments). Call on the owner thread (or before it runs); taps add up.
     *
     * @throws IOException if the interfaces cannot be written
     */
    public SwitchCapture capture(CaptureWriter writer, long epochOffsetNanos) throws IOException {
        List<String> names = new ArrayList<>();
        long[] speeds = new long[portConfigs.length];
        for (int i = 0; i < portConfigs.length; i++) {
            names.add(config.hostname() + ":" + portConfigs[i].name());
            speeds[i] = portConfigs[i].speedBitsPerSecond();
        }
        return addTap(SwitchCapture.wholeSwitch(writer, names, speeds, epochOffsetNanos));
    }

    /**
     * Taps one port into a classic pcap: what crossed its wire, both directions, as a capture on
     * the cable would show. Call on the owner thread (or before it runs); taps add up.
     *
     * @param name   the configured port name
     * @param writer usually a {@code PcapWriter} (the tap does not close it)
     * @throws IOException if the interface cannot be written
     */
    public SwitchCapture capturePort(String name, CaptureWriter writer, long epochOffsetNanos) throws IOException {
        int i = port(name);
        return addTap(SwitchCapture.onePort(writer, i, portConfigs.length, config.hostname() + ":" + name,
            portConfigs[i].speedBitsPerSecond(), epochOffsetNanos));
    }

    private SwitchCapture addTap(SwitchCapture tap) {
        SwitchCapture[] t = Arrays.copyOf(taps, taps.length + 1);
        t[taps.length] = tap;
        taps = t;
        return tap;
    }

    @Override
    public void receive(int in, ByteBuf frame) {
        SwitchCapture[] t = taps;
        // one clock read per task of the owner thread, per frame while a capture is attached
        long now = t.length == 0 ? clock.now() : clock.fresh();
        PortCounters c = counters[in];
        c.rxFrames++;
        c.rxBytes += frame.readableBytes();
        for (SwitchCapture tap : t) {
            tap.record(in, now, frame, null, false);
        }
        PacketContext ctx = contexts.acquireForParse(frame, in, now);
        DropReason size = frameSize.apply(ctx);
        if (size != null) {
            dropped(ctx, size);
            return;
        }
        if (!parse.apply(ctx)) {
            dropped(ctx, DropReason.MALFORMED);
            return;
        }
        if (ctx.kind == FrameKind.PFC) {
            egress[in].onPfc(frame, ctx.l3Offset);
            frame.release();
            contexts.release(ctx);
            return;
        }
        if (mlag != null && MlagMessage.is(frame)) {
            mlag.onMessage(frame, lags.interfaceOf(in));
            frame.release();
            contexts.release(ctx);
            return;
        }
        if (ctx.dstMac == Lacpdu.DESTINATION && Lacpdu.isLacp(frame)) {
            LacpActor actor = lacp.actor(in);
            if (actor != null) {
                actor.receive(Lacpdu.ofFrame(frame));
            }
            frame.release();
            contexts.release(ctx);
            return;
        }
        if (ctx.kind == FrameKind.PAUSE) {
            // 802.3x: told from PFC by its opcode (0x0001); counted, and honoured by a port set to rx or both
            egress[in].onPause(frame, ctx.l3Offset);
            frame.release();
            contexts.release(ctx);
            return;
        }
        if (lldp != null && io.rocelab.codec.lldp.Lldpdu.isLldp(frame)) {
            // LLDP: the switch's own, trapped to the port's agent, never forwarded
            lldp.receive(in, frame);
            frame.release();
            contexts.release(ctx);
            return;
        }
        if ((ctx.dstMac & ~0xFL) == 0x0180_C200_0000L
                || ctx.kind == FrameKind.OTHER
                && frame.getUnsignedShort(frame.readerIndex() + 12) == EtherType.MAC_CONTROL) {
            // link-local (IEEE 802.1Q Table 8-1): never forwarded
            frame.release();
            contexts.release(ctx);
            return;
        }
        if (bgp != null && ctx.ipVersion == 4
                && bgp.trap(lags.interfaceOf(in), frame, ctx.l3Offset, ctx.l4Offset, ctx.l4Protocol)) {
            // BGP or BFD for this switch's address on the link: the control plane's, never forwarded
            frame.release();
            contexts.release(ctx);
            return;
        }
        if (sflow != null) {
            // sFlow's ingress sampler sees the data frames the port takes in, before any decision
            sflow.ingress(in, frame);
        }
        LagGroup lag = lags.groupOfPort(in);
        if (lag != null && !lag.collecting(in)) {
            dropped(ctx, DropReason.LAG_NOT_COLLECTING);
            return;
        }
        if (vtep != null && vtep.terminates(ctx)) {
            decapsulate(ctx, now);
            return;
        }
        if (!vlan.ingress(ctx)) {
            dropped(ctx, DropReason.VLAN_NOT_MEMBER);
            return;
        }
        classify.apply(ctx);
        if (acl.ingress(ctx)) {
            dropped(ctx, DropReason.ACL);
            return;
        }
        DropReason why = forward.apply(ctx, now);
        if (why != null) {
            dropped(ctx, why);
            return;
        }
        if (vtep != null && ctx.flood && !ctx.routed && vtep.vniOf(ctx.vid) >= 0 && tunnelOut(ctx, now)) {
            return;
        }
        if (ctx.flood) {
            flood(ctx);
        } else {
            admit(ctx);
        }
    }

    /**
     * A VXLAN packet for this VTEP: classified by its outer header (the underlay's class, in whose
     * priority group it arrived), decapsulated, and its inner frame bridged to the local members of
     * its VLAN, never into the tunnel again.
     */
    private void decapsulate(PacketContext ctx, long now) {
        classify.apply(ctx);
        DropReason why = vtep.decapsulate(ctx, parse, now);
        if (why == null) {
            why = forward.bridgeDecapsulated(ctx, now);
        }
        if (why != null) {
            dropped(ctx, why);
            return;
        }
        if (ctx.flood) {
            flood(ctx);
        } else {
            admit(ctx);
        }
    }

    /**
     * A frame of a VLAN mapped to a VNI that the FDB does not place locally: to the remote VTEP its
     * destination was learned behind, or (flooded) a copy to each VTEP of the VNI's flood list,
     * head-end replication, beside the local flood.
     *
     * @return true if the frame went into the tunnel alone (nothing left to do)
     */
    private boolean tunnelOut(PacketContext ctx, long now) {
        if (!io.rocelab.codec.header.MacAddress.isMulticast(ctx.dstMac)) {
            int remote = vtep.remoteOf(ctx.vid, ctx.dstMac, now);
            if (remote != 0) {
                ctx.flood = false;
                encapsulate(ctx, remote, now);
                return true;
            }
        }
        for (int remote : vtep.floodList(ctx.vid)) {
            PacketContext copy = contexts.acquire();
            copy.copyHeadersFrom(ctx);
            copy.frame = ctx.frame.copy();
            copy.vid = ctx.vid;
            encapsulate(copy, remote, now);
        }
        return false;
    }

    /** The context's frame, encapsulated for {@code remote}, routed to it and queued as any packet the switch sends. */
    private void encapsulate(PacketContext ctx, int remote, long now) {
        ByteBuf outer = vtep.encapsulate(ctx, remote, alloc);
        ctx.frame.release();
        ctx.frame = outer;
        parse.apply(ctx);
        ctx.length = outer.readableBytes();
        ctx.vid = VlanStage.UNAWARE;
        DropReason why = forward.routeOriginated(ctx, now);
        if (why != null) {
            vtep.notSent(remote);
            dropped(ctx, why);
            return;
        }
        vtep.sent(remote, ctx.length);
        admit(ctx);
    }

    private void flood(PacketContext ctx) {
        int last = -1;
        // a port channel gets one copy, on the member its flow hash picks
        long lagHash = lags.isEmpty() ? 0 : LagHash.of(ctx, config.ecmpHashSeed());
        for (int p = 0; p < ports.length; p++) {
            if (floodsTo(ctx, p, lagHash)) {
                last = p;
            }
        }
        if (last < 0) {
            ctx.frame.release();
            contexts.release(ctx);
            return;
        }
        for (int p = 0; p < last; p++) {
            if (floodsTo(ctx, p, lagHash)) {
                PacketContext copy = contexts.acquire();
                copy.copyHeadersFrom(ctx);
                copy.frame = ctx.frame.copy();
                copy.egressPort = p;
                admit(copy);
            }
        }
        ctx.egressPort = last;
        ctx.flood = false;
        admit(ctx);
    }

    private boolean floodsTo(PacketContext ctx, int p, long lagHash) {
        if (p == ctx.ingressPort || ports[p] == null || !ports[p].isUp() || !vlan.mayLeave(ctx, p)) {
            return false;
        }
        int in = lags.interfaceOf(ctx.ingressPort);
        if (peerRules.isolated(in, lags.interfaceOf(p))) {
            return false;
        }
        LagGroup g = lags.groupOfPort(p);
        return g == null || g.iface() != in && g.select(lagHash) == p;
    }

    private void admit(PacketContext ctx) {
        ctx.queue = portConfigs[ctx.egressPort].tcToQueue()[ctx.tc];
        if (!ports[ctx.egressPort].isUp()) {
            dropped(ctx, DropReason.LINK_DOWN);
            return;
        }
        if (watchdog.ingress(ctx.ingressPort, portConfigs[ctx.ingressPort].tcToQueue()[ctx.tc])) {
            dropped(ctx, DropReason.PFC_WATCHDOG);
            return;
        }
        if (acl.egress(ctx)) {
            dropped(ctx, DropReason.ACL);
            return;
        }
        vlan.egress(ctx);
        if (dscpRemark.egress(ctx)) {
            counters[ctx.egressPort].egressDscpRemarked++;
        }
        DropReason why = mmu.admit(ctx);
        if (why != null) {
            dropped(ctx, why);
            return;
        }
        egress[ctx.egressPort].enqueue(ctx, ctx.arrivalNanos);
    }

    /**
     * An ACL's mirror action: a copy of the packet leaves by the SPAN session's {@code dst_port}, in
     * that port's queue of TC 0, lossy: it takes the buffer like any packet and is dropped when it
     * does not fit, never pausing anyone.
     */
    private void mirror(PacketContext ctx, int port) {
        if (ports[port] == null || !ports[port].isUp()) {
            return;
        }
        PacketContext copy = contexts.acquire();
        copy.copyHeadersFrom(ctx);
        copy.frame = ctx.frame.copy();
        copy.egressPort = port;
        copy.tc = 0;
        copy.priorityGroup = portConfigs[ctx.ingressPort].tcToPg()[0];
        copy.queue = portConfigs[port].tcToQueue()[0];
        copy.lossless = false;
        DropReason why = mmu.admit(copy);
        if (why != null) {
            dropped(copy, why);
            return;
        }
        egress[port].enqueue(copy, copy.arrivalNanos);
    }

    /** @return the ACL rules' counters ({@code aclshow -a}); call on the owner thread */
    public List<AclStage.RuleCounter> aclCounters() {
        return acl.counters();
    }

    /** {@code sonic-clear acl}: the ACL rules' counters count from zero; call on the owner thread. */
    public void clearAclCounters() {
        acl.clearCounters();
    }

    /**
     * A frame of the routing control plane (BGP, BFD) leaves by the port's control queue (a port
     * channel's: the member flow 0 hashes to), as LACPDUs do: a cut cable loses it, a paused or congested data class does not hold it up (SONiC maps
     * CS6 to a strict, lossless-free queue; rocelab gives it the port's control queue).
     */
    private void sendControl(int iface, ByteBuf frame, String comment) {
        LagGroup g = lags.group(iface);
        int port = g == null ? iface : g.select(0);
        if (port < 0 || ports[port] == null || !ports[port].isUp()) {
            frame.release();
            return;
        }
        egress[port].sendControl(frame, comment);
    }

    /** An LACPDU leaves by the port's control queue, never paused, as PFC does. */
    private void sendLacp(int port, ByteBuf frame) {
        if (ports[port] == null || !ports[port].isUp()) {
            frame.release();
            return;
        }
        egress[port].sendControl(frame, "LACPDU");
    }

    private void sendPfc(int port, ByteBuf frame, String comment, int cev, boolean xoff) {
        if (ports[port] == null || !ports[port].isUp()) {
            frame.release();
            return;
        }
        for (int p = 0; p < 8; p++) {
            if ((cev & (1 << p)) != 0) {
                // show pfc counters: every PFC frame naming the priority, XOFF or XON, as the
                // receiving end counts it (EgressPort.onPfc); txXon tells the resumes apart
                counters[port].txPfc[p]++;
                if (!xoff) {
                    counters[port].txXon[p]++;
                }
            }
        }
        egress[port].sendControl(frame, comment);
    }

    /** An 802.3x PAUSE leaves by the port's control queue, as PFC does ({@code SAI_PORT_STAT_PAUSE_TX_PKTS}). */
    private void sendPause(int port, ByteBuf frame, String comment, boolean xoff) {
        if (ports[port] == null || !ports[port].isUp()) {
            frame.release();
            return;
        }
        counters[port].txPause++;
        egress[port].sendControl(frame, comment);
    }

    private void linkStateChanged(int port, boolean up) {
        LagGroup lag = lags.groupOfPort(port);
        LacpActor actor = lacp.actor(port);
        if (actor != null) {
            actor.linkStateChanged(up && lag.config().adminUp());
        } else if (lag != null) {
            // a static group's member collects and distributes while its link is up
            memberStateChanged(lag, port, up, up);
        }
        forward.linkStateChanged();
        if (!up) {
            egress[port].flush();
            fdb.flushPort(port);
        } else {
            egress[port].pump();
        }
        if (mlag != null && port == mlag.peerLink()) {
            mlag.peerLinkChanged(up);
        }
        if (bgp != null) {
            bgp.linkStateChanged(port, up);
        }
        if (lldp != null) {
            lldp.linkStateChanged(port, up);
        }
    }

    /**
     * Starts LLDP on every port (SONiC's {@code FEATURE|lldp}): an agent per port, its LLDPDUs by
     * the port's control queue, LLDP frames trapped to it. Off until called, so a fabric without
     * LLDP sends not one frame more. Call on the owner thread (or before it runs), once.
     */
    public io.rocelab.sw.lldp.SwitchLldp startLldp(io.rocelab.sw.lldp.LldpSettings settings) {
        if (lldp != null) {
            throw new IllegalStateException("LLDP already started");
        }
        lldp = new io.rocelab.sw.lldp.SwitchLldp(config, settings, scheduler, alloc,
            (p, f) -> sendLinkLocal(p, f, "LLDPDU"));
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] != null) {
                lldp.linkStateChanged(i, ports[i].isUp());
            }
        }
        return lldp;
    }

    /**
     * Starts sFlow as the configuration's {@code SFLOW} tables set it ({@link SwitchConfig#sflow()}):
     * the ports' samplers (seeded from the switch's seed), the counter polls, datagrams to
     * {@code sink}. Off until called. Call on the owner thread (or before it runs), once.
     */
    public io.rocelab.sw.sflow.SflowAgent startSflow(io.rocelab.sw.sflow.SflowSink sink) {
        if (sflow != null) {
            throw new IllegalStateException("sFlow already started");
        }
        sflow = new io.rocelab.sw.sflow.SflowAgent(config, scheduler, seed, new io.rocelab.sw.sflow.SflowAgent.PortState() {
            @Override
            public PortCounters counters(int port) {
                return counters[port];
            }

            @Override
            public boolean isUp(int port) {
                return SoftSwitch.this.isUp(port);
            }
        }, sink);
        sflow.start();
        return sflow;
    }

    /** @return the sFlow agent, or null if not started: owner thread only */
    public io.rocelab.sw.sflow.SflowAgent sflow() {
        return sflow;
    }

    /** @return LLDP on the ports, or null if not started: owner thread only */
    public io.rocelab.sw.lldp.SwitchLldp lldp() {
        return lldp;
    }

    /** A link-local frame of the switch's own (LLDP) leaves by the port's control queue, if the port is up. */
    private void sendLinkLocal(int port, ByteBuf frame, String comment) {
        if (ports[port] == null || !ports[port].isUp()) {
            frame.release();
            return;
        }
        egress[port].sendControl(frame, comment);
    }

    /**
     * A member may now collect and distribute, or not: routes re-hash, a group gone down forgets its
     * MACs (an MLAG's shared one hands them to the peer link), and the MLAG peer hears of it.
     */
    private void memberStateChanged(LagGroup lag, int port, boolean collect, boolean distribute) {
        boolean changed = lag.set(port, collect, distribute);
        forward.linkStateChanged();
        if (!changed) {
            return;
        }
        if (bgp != null) {
            bgp.linkStateChanged(lag.iface(), lag.isUp());
        }
        if (mlag != null && mlag.isShared(lag.iface())) {
            mlag.localInterfaceChanged(lag.iface(), lag.isUp());
        } else if (!lag.isUp()) {
            fdb.flushPort(lag.iface());
        }
        if (mlag != null && lag.iface() == mlag.peerLink()) {
            mlag.peerLinkChanged(lag.isUp());
        }
    }

    /** An MLAG message leaves by the peer link: the port, or the port channel's member for flow 0. */
    private void sendOnPeerLink(ByteBuf frame) {
        int link = mlag.peerLink();
        LagGroup g = lags.group(link);
        int port = g == null ? link : g.select(0);
        if (port < 0 || ports[port] == null || !ports[port].isUp()) {
            frame.release();
            return;
        }
        egress[port].sendControl(frame, "MLAG");
    }

    // ---- EgressHooks ----

    @Override
    public void dequeued(PacketContext ctx) {
        mmu.release(ctx);
    }

    @Override
    public void dropped(PacketContext ctx, DropReason reason) {
        counters[ctx.ingressPort].drops[reason.ordinal()]++;
        if (ctx.egressPort >= 0) {
            counters[ctx.egressPort].queueDropPackets[ctx.queue]++;
            counters[ctx.egressPort].queueDropBytes[ctx.queue] += ctx.length;
        }
        for (SwitchCapture tap : taps) {
            tap.record(ctx.egressPort >= 0 ? ctx.egressPort : ctx.ingressPort, scheduler.nanoTime(), ctx.frame,
                reason.comment(), ctx.egressPort >= 0, false);
        }
        ctx.frame.release();
        contexts.release(ctx);
    }

    @Override
    public void transmitting(int port, ByteBuf frame, String comment) {
        for (SwitchCapture tap : taps) {
            tap.record(port, scheduler.nanoTime(), frame, comment, true);
        }
        if (sflow != null) {
            sflow.egress(port, frame);
        }
    }

    @Override
    public void recycle(PacketContext ctx) {
        contexts.release(ctx);
    }

    // ---- PortView ----

    @Override
    public boolean isUp(int port) {
        if (port >= ports.length) {
            return lags.group(port).isUp();
        }
        return ports[port] != null && ports[port].isUp();
    }

    @Override
    public long queuedBytes(int port) {
        if (port >= ports.length) {
            long sum = 0;
            for (int m : lags.group(port).members()) {
                sum += egress[m].queuedBytes();
            }
            return sum;
        }
        return egress[port].queuedBytes();
    }

    @Override
    public long transmittedBytes(int port) {
        if (port >= ports.length) {
            long sum = 0;
            for (int m : lags.group(port).members()) {
                sum += counters[m].txBytes;
            }
            return sum;
        }
        return counters[port].txBytes;
    }

    @Override
    public long speedBitsPerSecond(int port) {
        if (port >= ports.length) {
            long sum = 0;
            for (int m : lags.group(port).members()) {
                sum += portConfigs[m].speedBitsPerSecond();
            }
            return sum;
        }
        return portConfigs[port].speedBitsPerSecond();
    }

    @Override
    public int portCount() {
        return ports.length;
    }

    // ---- inspection ----

    public SwitchConfig config() {
        return config;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    /** @return port index of {@code name} */
    public int port(String name) {
        int i = config.portIndex(name);
        if (i < 0) {
            throw new IllegalArgumentException("no port '" + name + "'");
        }
        return i;
    }

    /** @return the live counters of {@code port}: owner thread only (else {@link #countersSnapshot()}) */
    public PortCounters counters(int port) {
        return counters[port];
    }

    /**
     * Copies every port counter and watchdog state on the owner thread, so another thread can read
     * them while traffic runs. On the owner thread the copy is immediate; from another thread the
     * copy is queued to the owner and this call waits for it (at most {@value #SNAPSHOT_TIMEOUT_SECONDS} s:
     * a virtual-time switch only runs tasks while someone runs its scheduler).
     *
     * @throws IllegalStateException if the owner does not take the copy in time
     */
    public SwitchCounters countersSnapshot() {
        if (scheduler.inOwnerThread()) {
            return takeSnapshot();
        }
        CompletableFuture<SwitchCounters> f = new CompletableFuture<>();
        scheduler.execute(() -> f.complete(takeSnapshot()));
        try {
            return f.get(SNAPSHOT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the switch's owner thread", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the switch's owner thread did not take the counter snapshot within "
                + SNAPSHOT_TIMEOUT_SECONDS + " s (is its scheduler running?)", e);
        }
    }

    private SwitchCounters takeSnapshot() {
        List<String> names = new ArrayList<>();
        List<Boolean> up = new ArrayList<>();
        List<PortCounters> copies = new ArrayList<>();
        for (int i = 0; i < portConfigs.length; i++) {
            names.add(portConfigs[i].name());
            up.add(isUp(i));
            copies.add(counters[i].copy());
        }
        List<QueueWatch> watches = new ArrayList<>();
        for (QueueWatch w : watchdog.watches()) {
            watches.add(w.copy());
        }
        FdbCounters f = new FdbCounters(fdb.size(), fdb.capacity(), fdb.learnRefused(), fdb.agedOut());
        return new SwitchCounters(scheduler.nanoTime(), List.copyOf(names), List.copyOf(up), List.copyOf(copies),
            List.copyOf(watches), f);
    }

    public EgressPort egress(int port) {
        return egress[port];
    }

    public Mmu mmu() {
        return mmu;
    }

    public PfcGenerator pfc() {
        return pfc;
    }

    /** @return the 802.3x PAUSE generator (ports with {@code global_flow_control tx|both}) */
    public PauseGenerator pause() {
        return pause;
    }

    public PfcWatchdog watchdog() {
        return watchdog;
    }

    public ForwardStage forwarding() {
        return forward;
    }

    public FdbTable fdb() {
        return fdb;
    }

    /** @return the port channels: owner thread only */
    public PortChannels portChannels() {
        return lags;
    }

    /** @return this switch's half of its MLAG domain, or null: owner thread only */
    public MlagPeer mlag() {
        return mlag;
    }

    /** @return the VXLAN tunnel endpoint, or null (no {@code VXLAN_TUNNEL}): owner thread only */
    public io.rocelab.sw.vxlan.Vtep vtep() {
        return vtep;
    }

    /** @return the eBGP speaker, or null (static routes only): owner thread only */
    public BgpSpeaker bgp() {
        return bgp;
    }

    /** @return the LACP actor on {@code port}, or null (no LACP port channel there): owner thread only */
    public LacpActor lacpActor(int port) {
        return lacp.actor(port);
    }

    /** @return the data path's clock (how often it read the scheduler's time) */
    public TaskClock clock() {
        return clock;
    }

    /** @return contexts ever allocated: stays flat in steady state */
    public int contextsAllocated() {
        return contexts.created();
    }
}
