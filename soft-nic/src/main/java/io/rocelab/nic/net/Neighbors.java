package io.rocelab.nic.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Arp;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayDeque;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.agrona.collections.Long2LongHashMap;

/**
 * ARP for the NIC's own IPv4 address (RFC 826): answers requests for it, learns senders, and
 * resolves peers before RoCE frames can leave. Frames waiting for a resolution are parked (at most
 * {@value #MAX_PARKED} per address: eight QPs' windows of 128 PSNs) and sent, in order, when the
 * reply comes; while a resolution is under way ({@link #isResolving}) the QPs' ACK timers hold, so
 * a go-back-N retransmission does not park second copies of the same PSNs. The request is
 * repeated every {@value #RETRY_MILLIS} ms, {@value #ATTEMPTS} times, then the parked frames are
 * dropped and counted. A NIC owning raw frames must do this itself (docs/design.md §4), since no kernel
 * answers for its address. A sender asking for our address is learned (RFC 826's merge rule) while
 * the table holds fewer than {@value #MAX_LEARNED} entries; beyond that it is answered, not learned,
 * and counted, or a stream of requests from ever new addresses would grow the table without end.
 * An address we resolve ourselves is always learned.
 */
public final class Neighbors {
    static final int MAX_PARKED = 1024;
    static final int RETRY_MILLIS = 1000;
    static final int ATTEMPTS = 3;
    /** Entries learned from peers asking for us, at most (Linux's neighbour table limit, gc_thresh3). */
    public static final int MAX_LEARNED = 1024;

    private final long mac;
    private final int ip;
    private final Scheduler scheduler;
    private final FramePort port;
    private final ByteBufAllocator alloc;
    private final CounterSet<NicCounter> counters;
    private final L2Framing l2;
    private final Long2LongHashMap table = new Long2LongHashMap(-1L);
    /**
     * The last address found (as the table's key; -1: none) and its MAC: a host sends nearly every
     * frame to one next hop, its router, so a frame's lookup mostly reads these two fields and not
     * the table. Forgotten whenever the table changes.
     */
    private long lastKey = -1L;
    private long lastMac;
    private final Int2ObjectHashMap<ArrayDeque<ByteBuf>> parked = new Int2ObjectHashMap<>();
    /** Addresses whose last resolution got no answer. */
    private final IntHashSet failed = new IntHashSet();
    /** The default route's next hop ({@code ip route add default via ...}): its MAC, -1 for none. */
    private long gatewayMac = -1L;
    /** With a default route: the peers on this host's own link, resolved by ARP, not through the gateway. */
    private final IntHashSet onLink = new IntHashSet();

    public Neighbors(long mac, int ip, Scheduler scheduler, FramePort port, ByteBufAllocator alloc,
              CounterSet<NicCounter> counters, L2Framing l2) {
        this.l2 = l2;
        this.mac = mac;
        this.ip = ip;
        this.scheduler = scheduler;
        this.port = port;
        this.alloc = alloc;
        this.counters = counters;
    }

    public void add(int peerIp, long peerMac) {
        table.put(peerIp & 0xFFFF_FFFFL, peerMac);
        lastKey = -1L;
        failed.remove(peerIp);
        ArrayDeque<ByteBuf> q = parked.remove(peerIp);
        if (q != null) {
            for (ByteBuf f; (f = q.poll()) != null; ) {
                MacAddress.set(f, Ethernet.DST, peerMac);
                port.send(f);
            }
        }
    }

    /**
     * Whether frames for {@code peerIp} are parked, waiting for an ARP reply, in the first
     * resolution since the address last failed to resolve: a peer that did not answer once is not
     * waited for again, so a QP towards it fails as fast as retry_cnt says.
     */
    public boolean isResolving(int peerIp) {
        return parked.containsKey(peerIp) && !failed.contains(peerIp);
    }

    /** Whether a new entry for {@code peerIp} may be learned: below the limit, or one we are resolving. */
    private boolean hasRoomFor(int peerIp) {
        return table.size() < MAX_LEARNED || parked.containsKey(peerIp);
    }

    /** Entries in the table, static ones included. */
    public int size() {
        return table.size();
    }

    /**
     * Sets a default route: a peer with no entry of its own, and not {@linkplain #addOnLink on this
     * host's link}, is sent to {@code mac}, the router's, as a host with {@code default via ROUTER} in
     * its routing table and the router's MAC in its neighbour table does. One entry instead of one per
     * peer: in a fabric of thousands of hosts the per-peer entries grow with the square of the hosts.
     */
    public void setDefaultGateway(long mac) {
        gatewayMac = mac;
        lastKey = -1L;
    }

    /** With a default route, {@code peerIp} is on this host's link: it is resolved by ARP, not routed. */
    public void addOnLink(int peerIp) {
        onLink.add(peerIp);
        lastKey = -1L;
    }

    long lookup(int peerIp) {
        long key = peerIp & 0xFFFF_FFFFL;
        if (key == lastKey) {
            return lastMac;
        }
        long m = table.get(key);
        if (m == -1L && gatewayMac != -1L && !onLink.contains(peerIp)) {
            m = gatewayMac;
        }
        if (m != -1L) {
            lastKey = key;
            lastMac = m;
        }
        return m;
    }

    /** Sends {@code frame} (dst MAC still to fill) to {@code peerIp}, resolving first if needed. */
    public void send(int peerIp, ByteBuf frame) {
        if (resolveOrPark(peerIp, frame)) {
            port.send(frame);
        }
    }

    /**
     * Resolves the next hop of {@code frame} (dst MAC still to fill) to {@code peerIp}, or parks it.
     *
     * @return true: the destination MAC is set and the caller sends the frame now; false: the frame
     *         is parked until the ARP reply (then sent, in order, on this table's port), or dropped
     *         and counted if too many are parked already; either way it is no longer the caller's
     */
    public boolean resolveOrPark(int peerIp, ByteBuf frame) {
        long m = lookup(peerIp);
        if (m != -1L) {
            MacAddress.set(frame, Ethernet.DST, m);
            return true;
        }
        ArrayDeque<ByteBuf> q = parked.get(peerIp);
        if (q == null) {
            q = new ArrayDeque<>();
            parked.put(peerIp, q);
            request(peerIp, ATTEMPTS);
        }
        if (q.size() >= MAX_PARKED) {
            counters.increment(NicCounter.DROP_ARP_PENDING);
            frame.release();
            return false;
        }
        q.add(frame);
        return false;
    }

    private void request(int peerIp, int attemptsLeft) {
        if (!parked.containsKey(peerIp)) {
            return;
        }
        if (attemptsLeft == 0) {
            ArrayDeque<ByteBuf> q = parked.remove(peerIp);
            failed.add(peerIp);
            for (ByteBuf f; (f = q.poll()) != null; ) {
                counters.increment(NicCounter.DROP_ARP_PENDING);
                f.release();
            }
            return;
        }
        sendArp(Arp.REQUEST, MacAddress.BROADCAST, 0L, peerIp);
        counters.increment(NicCounter.ARP_REQUESTS_SENT);
        scheduler.schedule(RETRY_MILLIS * 1_000_000L, () -> request(peerIp, attemptsLeft - 1));
    }

    /** Handles a received ARP packet at {@code off}; the caller keeps ownership of the buffer. */
    public void onArp(ByteBuf b, int off) {
        if (!Arp.isEthernetIpv4(b, off)) {
            return;
        }
        int op = Arp.operation(b, off);
        int senderIp = Arp.senderIp(b, off);
        long senderMac = Arp.senderMac(b, off);
        boolean forUs = learnFromArp(b, off);
        if (op == Arp.REQUEST && forUs) {
            sendArp(Arp.REPLY, senderMac, senderMac, senderIp);
            counters.increment(NicCounter.ARP_REPLIES_SENT);
        }
    }

    /**
     * Learns the sender of a received ARP packet at {@code off} by RFC 826's merge rule, answering
     * nothing: for a port that shares its neighbours with the one the packet came to (the two ports
     * of a bond, one interface with one ARP table).
     *
     * @return whether the packet asks about or answers for our address
     */
    public boolean learnFromArp(ByteBuf b, int off) {
        if (!Arp.isEthernetIpv4(b, off)) {
            return false;
        }
        int senderIp = Arp.senderIp(b, off);
        boolean forUs = Arp.targetIp(b, off) == ip;
        if (lookup(senderIp) != -1L || forUs && hasRoomFor(senderIp)) {
            add(senderIp, Arp.senderMac(b, off)); // RFC 826 merge rule
        } else if (forUs) {
            counters.increment(NicCounter.NEIGH_LEARN_REFUSED);
        }
        return forUs;
    }

    private void sendArp(int op, long ethDst, long targetMac, int targetIp) {
        ByteBuf f = alloc.buffer(Ethernet.MIN_FRAME);
        f.writerIndex(Ethernet.MIN_FRAME);
        f.setZero(0, Ethernet.MIN_FRAME);
        int l3 = l2.write(f, ethDst, EtherType.ARP, 0);
        Arp.write(f, l3, op, mac, ip, targetMac, targetIp);
        port.send(f);
    }

    public void releaseAll() {
        parked.values().forEach(q -> q.forEach(ByteBuf::release));
        parked.clear();
    }
}
