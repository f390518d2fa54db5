package io.rocelab.nic.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * IPv6 neighbour discovery (RFC 4861) for the NIC's own IPv6 addresses, the counterpart of
 * {@link Neighbors} (ARP): answers Neighbor Solicitations for our addresses with a solicited
 * Neighbor Advertisement, and resolves peers with a solicitation to their solicited-node multicast
 * group, parking frames meanwhile. The frames are the ones Linux sends (see the rc_pingpong_ipv6
 * capture): a solicitation from our link-local address with our MAC as source link-layer option;
 * an advertisement from the target address, flags Solicited and Override, with our MAC as target
 * link-layer option; hop limit 255 in both (RFC 4861 7.1.1 / 7.1.2 reject anything else).
 * No DAD, no router discovery, no NUD probing: entries stay until replaced.
 */
public final class NeighborDiscovery {
    public static final int NS = 135;
    public static final int NA = 136;
    /** ICMPv6 type, code, checksum, reserved/flags, target, one 8-byte link-layer option. */
    static final int MESSAGE_LENGTH = 32;
    static final int ND_HOP_LIMIT = 255;
    static final int OPT_SOURCE_LL = 1;
    static final int OPT_TARGET_LL = 2;
    static final int FLAG_SOLICITED = 0x4000_0000;
    static final int FLAG_OVERRIDE = 0x2000_0000;

    private final long mac;
    private final Gid linkLocal;
    private final List<Gid> own;
    private final Scheduler scheduler;
    private final FramePort port;
    private final ByteBufAllocator alloc;
    private final CounterSet<NicCounter> counters;
    private final L2Framing l2;
    private final Map<Gid, Long> table = new HashMap<>();
    private final Map<Gid, ArrayDeque<ByteBuf>> parked = new HashMap<>();
    /** Addresses whose last resolution got no answer. */
    private final Set<Gid> failed = new HashSet<>();

    public NeighborDiscovery(long mac, Gid linkLocal, List<Gid> own, Scheduler scheduler, FramePort port,
                      ByteBufAllocator alloc, CounterSet<NicCounter> counters, L2Framing l2) {
        this.mac = mac;
        this.linkLocal = linkLocal;
        this.own = List.copyOf(own);
        this.scheduler = scheduler;
        this.port = port;
        this.alloc = alloc;
        this.counters = counters;
        this.l2 = l2;
    }

    /** Whether the 16 bytes at {@code off} are one of our addresses (link-local or global). */
    public boolean isOwn(ByteBuf b, int off) {
        for (int i = 0; i < own.size(); i++) {
            if (own.get(i).matches(b, off)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether frames for {@code peer} are parked, waiting for a neighbour advertisement, in the
     * first resolution since the address last failed to resolve (see {@link Neighbors#isResolving}).
     */
    public boolean isResolving(Gid peer) {
        return parked.containsKey(peer) && !failed.contains(peer);
    }

    /** Entries in the table, static ones included. */
    public int size() {
        return table.size();
    }

    public void add(Gid peer, long peerMac) {
        table.put(peer, peerMac);
        failed.remove(peer);
        ArrayDeque<ByteBuf> q = parked.remove(peer);
        if (q != null) {
            for (ByteBuf f; (f = q.poll()) != null; ) {
                MacAddress.set(f, Ethernet.DST, peerMac);
                port.send(f);
            }
        }
    }

    /** Sends {@code frame} (destination MAC still to fill) to {@code peer}, soliciting first if needed. */
    public void send(Gid peer, ByteBuf frame) {
        if (resolveOrPark(peer, frame)) {
            port.send(frame);
        }
    }

    /**
     * Resolves the next hop of {@code frame} (destination MAC still to fill) to {@code peer}, or
     * parks it (see {@link Neighbors#resolveOrPark}).
     *
     * @return true: the destination MAC is set and the caller sends the frame now; false: parked
     *         until the neighbour advertisement, or dropped and counted; no longer the caller's
     */
    public boolean resolveOrPark(Gid peer, ByteBuf frame) {
        Long m = table.get(peer);
        if (m != null) {
            MacAddress.set(frame, Ethernet.DST, m);
            return true;
        }
        ArrayDeque<ByteBuf> q = parked.get(peer);
        if (q == null) {
            q = new ArrayDeque<>();
            parked.put(peer, q);
            solicit(peer, Neighbors.ATTEMPTS);
        }
        if (q.size() >= Neighbors.MAX_PARKED) {
            counters.increment(NicCounter.DROP_ND_PENDING);
            frame.release();
            return false;
        }
        q.add(frame);
        return false;
    }

    private void solicit(Gid target, int attemptsLeft) {
        if (!parked.containsKey(target)) {
            return;
        }
        if (attemptsLeft == 0) {
            ArrayDeque<ByteBuf> q = parked.remove(target);
            failed.add(target);
            for (ByteBuf f; (f = q.poll()) != null; ) {
                counters.increment(NicCounter.DROP_ND_PENDING);
                f.release();
            }
            return;
        }
        byte[] t = target.bytes();
        // solicited-node multicast ff02::1:ffXX:XXXX and its MAC 33:33:ff:XX:XX:XX (RFC 4291 2.7.1, RFC 2464 7)
        byte[] group = new byte[16];
        group[0] = (byte) 0xFF;
        group[1] = 0x02;
        group[11] = 0x01;
        group[12] = (byte) 0xFF;
        group[13] = t[13];
        group[14] = t[14];
        group[15] = t[15];
        long groupMac = 0x3333_FF00_0000L | ((t[13] & 0xFFL) << 16) | ((t[14] & 0xFFL) << 8) | (t[15] & 0xFFL);
        sendNd(NS, groupMac, linkLocal.bytes(), group, 0, t, OPT_SOURCE_LL);
        counters.increment(NicCounter.ND_SOLICITS_SENT);
        scheduler.schedule(Neighbors.RETRY_MILLIS * 1_000_000L, () -> solicit(target, attemptsLeft - 1));
    }

    /**
     * Handles a received ICMPv6 message (IPv6 header at {@code ip}); the caller keeps the buffer.
     * Only neighbour solicitations and advertisements are looked at; a bad one is counted and dropped.
     * The frame's parse checked that the IPv6 payload length fits the frame; nothing here reads
     * beyond that length, which may be anything down to 0.
     *
     * @return whether the message taught this port a neighbour (which a port sharing its cache learns too)
     */
    public boolean onIcmpv6(ByteBuf b, int ip, long ethSrc) {
        int type = ndType(b, ip, true);
        if (type < 0) {
            return false;
        }
        boolean learned = learn(b, ip, ethSrc, type, false);
        int icmp = ip + Ipv6.LENGTH;
        int target = icmp + 8;
        if (type != NS || !isOwn(b, target)) {
            return learned;
        }
        long llOption = linkLayerOption(b, icmp + 24, Ipv6.payloadLength(b, ip) - 24, OPT_SOURCE_LL);
        boolean fromUnspecified = fromUnspecified(b, ip);
        byte[] src = new byte[16];
        b.getBytes(ip + Ipv6.SRC, src);
        byte[] t = new byte[16];
        b.getBytes(target, t);
        if (fromUnspecified) {
            // a DAD probe: answer to all-nodes, not solicited (RFC 4861 7.2.4)
            byte[] allNodes = Ipv6.parse("ff02::1");
            sendNd(NA, 0x3333_0000_0001L, t, allNodes, FLAG_OVERRIDE, t, OPT_TARGET_LL);
        } else {
            sendNd(NA, llOption >= 0 ? llOption : ethSrc, t, src, FLAG_SOLICITED | FLAG_OVERRIDE, t, OPT_TARGET_LL);
        }
        counters.increment(NicCounter.ND_ADVERTS_SENT);
        return learned;
    }

    /**
     * Learns what a neighbour solicitation or advertisement taught another port sharing this one's
     * neighbours (the two ports of a bond: one interface, one neighbour cache), answering nothing:
     * the advertisement answering a solicitation one port sent may come in by the other, and the
     * entry is the interface's, so it is taken here whether or not this port was waiting for it.
     */
    public void learnFromNd(ByteBuf b, int ip, long ethSrc) {
        int type = ndType(b, ip, false);
        if (type >= 0) {
            learn(b, ip, ethSrc, type, true);
        }
    }

    /** NS or NA if the ICMPv6 message at {@code ip} is a valid one (RFC 4861 7.1.1 / 7.1.2), else -1. */
    private int ndType(ByteBuf b, int ip, boolean count) {
        int icmp = ip + Ipv6.LENGTH;
        int len = Ipv6.payloadLength(b, ip);
        if (len < Icmpv6.HEADER_LENGTH) {
            if (count) {
                counters.increment(NicCounter.DROP_MALFORMED); // RFC 4443 2.1: type, code and checksum at least
            }
            return -1;
        }
        int type = b.getUnsignedByte(icmp);
        if (type != NS && type != NA) {
            return -1;
        }
        // hop limit 255, code 0, at least 24 bytes, a valid checksum
        if (Ipv6.hopLimit(b, ip) != ND_HOP_LIMIT || b.getUnsignedByte(icmp + 1) != 0 || len < 24
                || Icmpv6.checksum(b, ip, icmp, len) != 0) {
            if (count) {
                counters.increment(NicCounter.DROP_MALFORMED);
            }
            return -1;
        }
        return type;
    }

    private static boolean fromUnspecified(ByteBuf b, int ip) {
        return b.getLong(ip + Ipv6.SRC) == 0 && b.getLong(ip + Ipv6.SRC + 8) == 0;
    }

    /**
     * The cache entry a valid NS or NA gives: a solicitation for our address teaches its sender
     * (RFC 4861 7.2.3), an advertisement the target we have or wait for (7.2.5), or, {@code shared},
     * that the port it came to took.
     *
     * @return whether an entry was added or refreshed
     */
    private boolean learn(ByteBuf b, int ip, long ethSrc, int type, boolean shared) {
        int icmp = ip + Ipv6.LENGTH;
        int len = Ipv6.payloadLength(b, ip);
        long llOption = linkLayerOption(b, icmp + 24, len - 24, type == NS ? OPT_SOURCE_LL : OPT_TARGET_LL);
        int target = icmp + 8;
        if (type == NS) {
            if (!isOwn(b, target) || fromUnspecified(b, ip) || llOption < 0) {
                return false;
            }
            byte[] src = new byte[16];
            b.getBytes(ip + Ipv6.SRC, src);
            return learnOrRefuse(Gid.of(src), llOption);
        }
        Gid t = Gid.read(b, target);
        long m = llOption >= 0 ? llOption : ethSrc;
        if (parked.containsKey(t) || table.containsKey(t)) {
            add(t, m); // only entries we have or wait for
            return true;
        }
        return shared && learnOrRefuse(t, m);
    }

    /** Adds {@code peer} if it is known, awaited or there is room: as many as ARP learns, at most. */
    private boolean learnOrRefuse(Gid peer, long peerMac) {
        if (table.containsKey(peer) || table.size() < Neighbors.MAX_LEARNED || parked.containsKey(peer)) {
            add(peer, peerMac);
            return true;
        }
        counters.increment(NicCounter.NEIGH_LEARN_REFUSED);
        return false;
    }

    /** The MAC in the first link-layer option of {@code kind}, or -1 (RFC 4861 4.6.1). */
    private static long linkLayerOption(ByteBuf b, int off, int len, int kind) {
        int end = off + len;
        while (off + 2 <= end) {
            int optLen = b.getUnsignedByte(off + 1) * 8;
            if (optLen == 0 || off + optLen > end) {
                return -1;
            }
            if (b.getUnsignedByte(off) == kind && optLen >= 8) {
                return MacAddress.get(b, off + 2);
            }
            off += optLen;
        }
        return -1;
    }

    private void sendNd(int type, long ethDst, byte[] ipSrc, byte[] ipDst, int flags, byte[] target, int option) {
        int l3 = l2.length();
        int total = Math.max(Ethernet.MIN_FRAME, l3 + Ipv6.LENGTH + MESSAGE_LENGTH);
        ByteBuf f = alloc.buffer(total);
        f.writerIndex(total);
        f.setZero(0, total);
        l2.write(f, ethDst, EtherType.IPV6, 0);
        Ipv6.write(f, l3, 0, 0, MESSAGE_LENGTH, Icmpv6.NEXT_HEADER, ND_HOP_LIMIT, ipSrc, ipDst);
        int icmp = l3 + Ipv6.LENGTH;
        f.setByte(icmp, type);
        f.setInt(icmp + 4, flags);
        f.setBytes(icmp + 8, target);
        f.setByte(icmp + 24, option);
        f.setByte(icmp + 25, 1);
        MacAddress.set(f, icmp + 26, mac);
        f.setShort(icmp + 2, Icmpv6.checksum(f, l3, icmp, MESSAGE_LENGTH));
        port.send(f);
    }

    public void releaseAll() {
        parked.values().forEach(q -> q.forEach(ByteBuf::release));
        parked.clear();
    }
}
