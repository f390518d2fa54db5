package io.rocelab.sw.routing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.routing.BfdPacket;
import io.rocelab.codec.routing.BgpMessage;
import io.rocelab.codec.routing.ControlFrame;
import io.rocelab.codec.routing.RoutePrefix;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.BgpConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The switch's eBGP speaker (RFC 4271) as RFC 7938 runs it in a datacenter: one session per fabric
 * link with the neighbour's interface address, the rack's prefixes originated ({@code network}),
 * best path by the shortest AS_PATH with multipath over every equal-length path whatever the
 * neighbour's AS ({@code bgp bestpath as-path multipath-relax}, which SONiC sets, and
 * {@code maximum-paths} unbounded), routes whose AS_PATH holds our own AS refused (loop prevention;
 * the sender does not filter them, FRR's default), and the result programmed into the switch's
 * route table as ECMP groups.
 *
 * <p>A static route ({@code STATIC_ROUTE}) for the same prefix wins (administrative distance 1
 * against eBGP's 20): the BGP route stays in the RIB, not in the FIB.
 *
 * <p>Time: every received UPDATE and every session that goes down costs the speaker
 * {@link BgpConfig#processingNanos()} before its routes change, one at a time (bgpd's single thread and
 * the FIB programming behind it); what changed is then sent at once to every neighbour (withdrawals)
 * or as the MRAI allows (advertisements). A withdrawal so travels hop by hop, each hop adding the
 * processing time and the link's serialization and propagation.
 *
 * <p>Detection: a link losing its carrier takes its session down at once with
 * {@code fast-external-failover} (FRR's default; the switch's ECMP groups have already skipped the
 * member, as orchagent removes a next hop on port down before BGP reacts); BFD takes it down when
 * no control packet came for its detection time; otherwise the hold timer does.
 *
 * <p>Owner thread only.
 */
public final class BgpSpeaker {
    /** FRR's administrative distances. */
    public static final int DISTANCE_STATIC = 1;
    public static final int DISTANCE_EBGP = 20;

    /** A Loc-RIB entry: the best path and every neighbour with an equally good one (multipath). */
    public record Best(List<Long> asPath, List<BgpSession> via, boolean local) {
    }

    private final String hostname;
    private final BgpConfig config;
    private final List<String> portNames;
    private final long routerMac;
    private final Scheduler scheduler;
    private final ByteBufAllocator alloc;
    private final ControlPlane out;
    private final Fib fib;
    private final Set<RoutePrefix> staticPrefixes;
    private final List<BgpSession> sessions = new ArrayList<>();
    private final BgpSession[] byPort;
    private final Set<RoutePrefix> networks = new TreeSet<>();
    private final TreeMap<RoutePrefix, Best> locRib = new TreeMap<>();
    private final Map<RoutePrefix, List<Fib.NextHop>> installed = new HashMap<>();
    private final List<RouteChange> changes = new ArrayList<>();
    private long busyUntil;
    private long lastChangeNanos = -1;
    private long updatesDiscarded;
    private boolean started;

    /**
     * @param portNames      the switch's interface names, by index: its ports, then its port channels
     * @param staticPrefixes the prefixes of the switch's static routes (they win over BGP's)
     * @param seed           seed of the BFD jitter
     */
    public BgpSpeaker(String hostname, BgpConfig config, List<String> portNames, long routerMac, Scheduler scheduler,
                      ByteBufAllocator alloc, ControlPlane out, Fib fib, Set<RoutePrefix> staticPrefixes, long seed) {
        this.hostname = hostname;
        this.config = config;
        this.portNames = List.copyOf(portNames);
        this.routerMac = routerMac;
        this.scheduler = scheduler;
        this.alloc = alloc;
        this.out = out;
        this.fib = fib;
        this.staticPrefixes = Set.copyOf(staticPrefixes);
        this.byPort = new BgpSession[portNames.size()];
        config.networks().forEach(n -> networks.add(RoutePrefix.parse(n)));
        int discriminator = 1;
        for (BgpConfig.Neighbor n : config.neighbors()) {
            int port = portNames.indexOf(n.port());
            BgpSession s = new BgpSession(this, scheduler, config, n, port);
            if (config.bfd() != null) {
                int myDisc = discriminator++;
                s.bfd = new BfdSession(scheduler, config.bfd(), myDisc, seed * 31 + myDisc, p -> sendBfd(s, p),
                    (b, why) -> s.down(why, true));
            }
            sessions.add(s);
            byPort[port] = s;
        }
        for (RoutePrefix p : networks) {
            locRib.put(p, new Best(List.of(), List.of(), true));
        }
    }

    /** Starts every session whose link is up. Call on the owner thread once the ports are attached. */
    public void start() {
        if (started) {
            return;
        }
        started = true;
        for (BgpSession s : sessions) {
            if (out.isUp(s.port)) {
                linkStateChanged(s.port, true);
            }
        }
    }

    /** An interface's carrier came or went (a port's link, a port channel's members). */
    public void linkStateChanged(int port, boolean up) {
        if (!started || port >= byPort.length || byPort[port] == null) {
            return;
        }
        BgpSession s = byPort[port];
        if (up == s.linkSeenUp) {
            return;
        }
        s.linkSeenUp = up;
        if (up) {
            // on the next task: the far end's carrier comes up in the same instant, and a frame sent
            // before its side of the cable is up would be lost
            scheduler.execute(() -> {
                if (out.isUp(port)) {
                    if (s.bfd != null) {
                        s.bfd.linkStateChanged(true);
                    }
                    s.start();
                }
            });
            return;
        }
        if (s.bfd != null) {
            s.bfd.linkStateChanged(false);
        }
        if (config.fastExternalFailover()) {
            s.down("interface down (fast-external-failover)", false);
        }
    }

    boolean linkUp(int port) {
        return out.isUp(port);
    }

    /**
     * A frame that came in on interface {@code in} (a port channel's, if by one of its members): if it
     * is BGP or BFD addressed to this switch's address on that link, the speaker takes it (the caller releases it); anything else goes on.
     *
     * @param l3 offset of the IPv4 header, {@code l4} of the transport header, {@code protocol} its type
     * @return whether the control plane took it
     */
    public boolean trap(int in, ByteBuf frame, int l3, int l4, int protocol) {
        BgpSession s = in < byPort.length ? byPort[in] : null;
        if (s == null || Ipv4.dst(frame, l3) != s.neighbor.localAddr()) {
            return false;
        }
        int start = frame.readerIndex();
        if (protocol == Ipv4.PROTO_TCP && (frame.getUnsignedShort(l4 + 2) == ControlFrame.BGP_PORT
                || frame.getUnsignedShort(l4) == ControlFrame.BGP_PORT)) {
            s.peerMac = Ethernet.src(frame, start);
            int payload = l4 + ((frame.getUnsignedByte(l4 + 12) >>> 4) * 4);
            int end = l3 + Ipv4.totalLength(frame, l3);
            long seq = Integer.toUnsignedLong(frame.getInt(l4 + 4));
            s.acknowledged(Integer.toUnsignedLong(frame.getInt(l4 + 8)));
            int length = end - payload;
            if (length == 0) {
                return true; // a pure ACK
            }
            if (s.state == BgpSession.State.Established && s.ackValid && seq != s.ack) {
                // a duplicate (resent before our ACK came) or a segment after a lost one: dropped, and
                // our ACK says what we wait for (go-back-N: the peer resends from there)
                if ((int) (seq - s.ack) > 0) {
                    s.segmentsLost++;
                }
                sendAck(s);
                return true;
            }
            s.ack = (seq + length) & 0xFFFF_FFFFL;
            s.ackValid = true;
            s.dataReceived();
            while (payload + BgpMessage.HEADER <= end) {
                BgpMessage m;
                try {
                    m = BgpMessage.read(frame, payload);
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    return true;
                }
                payload += frame.getUnsignedShort(payload + 16);
                s.receive(m);
            }
            return true;
        }
        if (protocol == Ipv4.PROTO_UDP && frame.getUnsignedShort(l4 + 2) == BfdPacket.PORT) {
            s.peerMac = Ethernet.src(frame, start);
            if (s.bfd != null) {
                try {
                    s.bfd.receive(BfdPacket.read(frame, l4 + 8));
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    return true;
                }
            }
            return true;
        }
        return false;
    }

    void send(BgpSession s, BgpMessage m) {
        s.msgSent++;
        long start = s.seq;
        int length = transmit(s, m, start);
        s.seq = (start + length) & 0xFFFF_FFFFL;
        if (s.state == BgpSession.State.Established) {
            s.sent(start, length, m);
        }
    }

    /** A pure acknowledgement of what came from the neighbour. */
    void sendAck(BgpSession s) {
        transmit(s, null, s.seq);
    }

    /**
     * One TCP segment holding {@code m} (null: none, a pure ACK) at sequence number {@code seq}.
     *
     * @return the payload's length
     */
    int transmit(BgpSession s, BgpMessage m, long seq) {
        int local = s.neighbor.localAddr();
        int peer = s.neighbor.peerAddr();
        // the lower address listens on 179 and the higher one connected from an ephemeral port
        int ephemeral = 49152 + (Math.max(local, peer) & 0x3FFF);
        boolean listener = Integer.compareUnsigned(local, peer) < 0;
        ByteBuf frame = ControlFrame.bgp(alloc, s.peerMac < 0 ? MacAddress.BROADCAST : s.peerMac, routerMac, local,
            peer, listener ? ControlFrame.BGP_PORT : ephemeral, listener ? ephemeral : ControlFrame.BGP_PORT, seq,
            s.ack, m);
        s.ackSent();
        int length = frame.getUnsignedShort(Ethernet.LENGTH + Ipv4.TOTAL_LENGTH) - Ipv4.MIN_LENGTH - 20;
        out.send(s.port, frame, m == null ? "BGP (TCP ACK)" : "BGP " + m.getClass().getSimpleName().toUpperCase());
        return length;
    }

    private void sendBfd(BgpSession s, BfdPacket p) {
        ByteBuf frame = ControlFrame.bfd(alloc, s.peerMac < 0 ? MacAddress.BROADCAST : s.peerMac, routerMac,
            s.neighbor.localAddr(), s.neighbor.peerAddr(), BfdPacket.SOURCE_PORT + s.port, p);
        out.send(s.port, frame, "BFD " + BfdPacket.stateName(p.state()));
    }

    // ---- the RIB ----

    /** Runs {@code work} after the processing time, behind whatever is already being processed. */
    private void process(Runnable work) {
        long at = Math.max(scheduler.nanoTime(), busyUntil) + config.processingNanos();
        busyUntil = at;
        scheduler.scheduleAt(at, work);
    }

    void received(BgpSession s, BgpMessage.Update u) {
        int generation = s.generation;
        process(() -> {
            if (s.generation != generation) {
                return;
            }
            Set<RoutePrefix> touched = new HashSet<>();
            for (RoutePrefix p : u.withdrawn()) {
                if (s.adjRibIn.remove(p) != null) {
                    touched.add(p);
                }
            }
            if (!u.nlri().isEmpty()) {
                if (u.asPath().contains(config.asn())) {
                    // RFC 4271 section 9.1.2: a route whose AS_PATH holds our AS is not used (loop)
                    updatesDiscarded++;
                    for (RoutePrefix p : u.nlri()) {
                        if (s.adjRibIn.remove(p) != null) {
                            touched.add(p);
                        }
                    }
                } else {
                    for (RoutePrefix p : u.nlri()) {
                        s.adjRibIn.put(p, u.asPath());
                        touched.add(p);
                    }
                }
            }
            decide(touched);
        });
    }

    void established(BgpSession s) {
        for (Map.Entry<RoutePrefix, Best> e : locRib.entrySet()) {
            s.enqueue(e.getKey(), advertised(e.getValue()));
        }
        s.flush();
    }

    void sessionDown(BgpSession s, List<RoutePrefix> lost) {
        if (lost.isEmpty()) {
            return;
        }
        process(() -> decide(new HashSet<>(lost)));
    }

    private List<Long> advertised(Best best) {
        List<Long> path = new ArrayList<>(best.asPath.size() + 1);
        path.add(config.asn());
        path.addAll(best.asPath);
        return path;
    }

    /** The decision process for {@code prefixes}: Loc-RIB, FIB, and what each neighbour is to be told. */
    private void decide(Set<RoutePrefix> prefixes) {
        List<RoutePrefix> sorted = new ArrayList<>(prefixes);
        Collections.sort(sorted);
        for (RoutePrefix p : sorted) {
            if (networks.contains(p)) {
                continue;
            }
            Best before = locRib.get(p);
            Best after = best(p);
            if (after == null) {
                locRib.remove(p);
            } else {
                locRib.put(p, after);
            }
            program(p, after);
            boolean pathChanged = before == null ? after != null
                : after == null || !before.asPath.equals(after.asPath);
            if (pathChanged) {
                List<Long> path = after == null ? List.of() : advertised(after);
                for (BgpSession s : sessions) {
                    s.enqueue(p, path);
                }
            }
        }
        for (BgpSession s : sessions) {
            s.flush();
        }
    }

    private Best best(RoutePrefix p) {
        int shortest = Integer.MAX_VALUE;
        List<BgpSession> via = new ArrayList<>();
        List<Long> path = null;
        BgpSession from = null;
        for (BgpSession s : sessions) {
            List<Long> candidate = s.state == BgpSession.State.Established ? s.adjRibIn.get(p) : null;
            if (candidate == null) {
                continue;
            }
            if (candidate.size() < shortest) {
                shortest = candidate.size();
                via.clear();
                path = null;
                from = null;
            }
            if (candidate.size() == shortest) {
                via.add(s);
                // the path advertised on: the neighbour with the lowest address (a stable tie-break)
                if (from == null || Integer.compareUnsigned(s.neighbor.peerAddr(), from.neighbor.peerAddr()) < 0) {
                    path = candidate;
                    from = s;
                }
            }
        }
        if (via.isEmpty()) {
            return null;
        }
        via.sort(Comparator.comparingInt(x -> x.port));
        return new Best(path, List.copyOf(via), false);
    }

    private void program(RoutePrefix p, Best best) {
        if (staticPrefixes.contains(p)) {
            return;
        }
        List<Fib.NextHop> hops = new ArrayList<>();
        if (best != null) {
            for (BgpSession s : best.via) {
                hops.add(new Fib.NextHop(s.port, s.peerMac));
            }
        }
        List<Fib.NextHop> now = installed.get(p);
        if (hops.equals(now == null ? List.of() : now)) {
            return;
        }
        if (hops.isEmpty()) {
            installed.remove(p);
            fib.remove(p);
        } else {
            installed.put(p, hops);
            fib.install(p, hops);
        }
        lastChangeNanos = scheduler.nanoTime();
        changes.add(new RouteChange(lastChangeNanos, p, hops.stream().map(h -> portNames.get(h.port())).toList()));
    }

    // ---- inspection ----

    /**
     * @return whether the speaker has settled: every session on a link that is up is Established
     *         (and its BFD Up), nothing is being processed and nothing waits to be sent
     */
    public boolean converged() {
        if (busyUntil > scheduler.nanoTime()) {
            return false;
        }
        for (BgpSession s : sessions) {
            if (!s.neighbor.adminUp() || !out.isUp(s.port)) {
                continue;
            }
            if (s.state != BgpSession.State.Established || s.bfd != null && !s.bfd.isUp()) {
                return false;
            }
        }
        return true;
    }

    public String hostname() {
        return hostname;
    }

    public BgpConfig config() {
        return config;
    }

    public List<BgpSession> sessions() {
        return Collections.unmodifiableList(sessions);
    }

    /** @return the session on {@code port}, or null */
    public BgpSession session(int port) {
        return port < byPort.length ? byPort[port] : null;
    }

    /** @return the Loc-RIB: originated and learnt prefixes with their best paths */
    public Map<RoutePrefix, Best> locRib() {
        return Collections.unmodifiableMap(locRib);
    }

    /** @return whether {@code prefix}'s BGP route is in the FIB (not shadowed by a static route) */
    public boolean inFib(RoutePrefix prefix) {
        return installed.containsKey(prefix);
    }

    /** @return every change made to the FIB, in order */
    public List<RouteChange> changes() {
        return Collections.unmodifiableList(changes);
    }

    /** @return when the FIB last changed, or -1 */
    public long lastChangeNanos() {
        return lastChangeNanos;
    }

    /** @return UPDATEs whose routes were refused because their AS_PATH held our AS */
    public long updatesDiscarded() {
        return updatesDiscarded;
    }

    /** @return the name of port {@code i} */
    public String portName(int i) {
        return portNames.get(i);
    }
}
