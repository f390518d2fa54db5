package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.Ethernet;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Vlan;
import io.rocelab.fabric.endpoint.UdpPayloadSink;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.nic.egress.NicEgress;
import io.rocelab.nic.egress.SendStep;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.net.GidType;
import io.rocelab.nic.net.L2Framing;
import io.rocelab.nic.net.NeighborDiscovery;
import io.rocelab.nic.net.Neighbors;
import io.rocelab.nic.stats.NicCounter;
import java.util.List;

/**
 * One physical port of a {@link SoftNic} (IBA port numbers 1 and 2): its link ({@link FramePort}),
 * MAC and addresses, GID table, neighbour tables (ARP, neighbour discovery), counters, and its own
 * wire: the egress the port's transmitter pulls from, PFC as its link partner sends it. What
 * {@code ibv_query_port} tells about a port; the QPs bound to it send through it
 * ({@link QueuePair#port()}).
 *
 * <p>Owner thread of the NIC, like everything of the device; the getters are immutable facts or
 * snapshots.
 */
public final class NicPort {
    final SoftNic nic;
    private final int number;
    final FramePort link;
    private final long mac;
    private final int ipv4;
    private final Gid[] gids;
    /** Each entry's type: every one RoCEv2 on an rxe-like port, v1 and v2 in turn with RoCEv1 on. */
    private final GidType[] gidTypes;
    final L2Framing l2;
    final CounterSet<NicCounter> counters = new CounterSet<>(NicCounter.class);
    final PacketWriter writer;
    /** What {@link #emit} returns for a frame ready to go: one carrier, reused (owner thread). */
    private final SendStep.Frame sent = new SendStep.Frame();
    /** The link speed: the transmitter's line rate and PFC's quanta; 0 for an unlimited port. */
    private final long linkSpeed;
    /** The speed PFC's pause quanta are counted at ({@link #linkSpeed}, or 100 Gb/s if unlimited). */
    final long pfcSpeed;
    /** What the transmitter pulls: MAC control, control frames, the QPs (see {@link NicEgress}). */
    final NicEgress egress;
    private final Transmitter transmitter;
    /**
     * Where the neighbour tables send (ARP, neighbour discovery, the frames parked for them once
     * resolved): the egress's control queue, at each frame's own priority.
     */
    private final FramePort out;
    final Neighbors neighbors;
    final NeighborDiscovery nd;
    /** PFC as this port receives and sends it. */
    final PortPfc pfc;
    /** 802.3x PAUSE as this port receives and sends it. */
    final PortPause pause;
    /** What the port sends to pause its partner: {@link #pfc} or {@link #pause}, by its mode. */
    final PortFlowControl flowControl;
    /** The link's state as the NIC last saw it (owner thread). */
    private boolean up;

    NicPort(SoftNic nic, int number, FramePort link, long mac, int ipv4, List<Gid> ipv6, L2Framing l2,
            ByteBufAllocator alloc, int firstIpId, boolean fixedIpId, long linkSpeedOverride,
            PauseResponse pauseResponse, FlowControlMode flowControlMode) {
        this(nic, number, link, mac, ipv4, ipv6, l2, alloc, firstIpId, fixedIpId, linkSpeedOverride, pauseResponse,
                flowControlMode, false);
    }

    /**
     * @param roceV1 whether the port lists a RoCEv1 GID beside each RoCEv2 one (see
     *               {@link SoftNic.Builder#roceV1})
     */
    NicPort(SoftNic nic, int number, FramePort link, long mac, int ipv4, List<Gid> ipv6, L2Framing l2,
            ByteBufAllocator alloc, int firstIpId, boolean fixedIpId, long linkSpeedOverride,
            PauseResponse pauseResponse, FlowControlMode flowControlMode, boolean roceV1) {
        this.nic = nic;
        this.number = number;
        this.link = link;
        this.mac = mac;
        this.ipv4 = ipv4;
        java.util.List<Gid> addresses = new java.util.ArrayList<>();
        addresses.add(Gid.linkLocal(mac));
        addresses.add(Gid.ipv4Mapped(ipv4));
        addresses.addAll(ipv6);
        // ib_core adds an address's GIDs one type after the other (ib_cache_gid_add over the port's
        // gid_type_mask), so a ConnectX (mlx5: v1 and v2) lists v1 then v2 at consecutive indices;
        // rxe's mask is RoCEv2 alone
        java.util.List<Gid> table = new java.util.ArrayList<>();
        java.util.List<GidType> types = new java.util.ArrayList<>();
        for (Gid a : addresses) {
            if (roceV1) {
                table.add(a);
                types.add(GidType.ROCE_V1);
            }
            table.add(a);
            types.add(GidType.ROCE_V2);
        }
        this.gids = table.toArray(new Gid[0]);
        this.gidTypes = types.toArray(new GidType[0]);
        java.util.List<Gid> own6 = new java.util.ArrayList<>(ipv6);
        own6.add(0, addresses.get(0));
        this.l2 = l2;
        this.writer = new PacketWriter(alloc, l2, firstIpId, fixedIpId,
                link instanceof UdpPayloadSink sink ? sink : null);
        this.linkSpeed = linkSpeedOverride >= 0 ? linkSpeedOverride : link.speedBitsPerSecond();
        this.pfcSpeed = linkSpeed > 0 ? linkSpeed : SoftNic.DEFAULT_PFC_SPEED;
        this.egress = new NicEgress(counters, pfcSpeed, pauseResponse);
        this.transmitter = new Transmitter(nic.agentScheduler(), link, linkSpeed, egress);
        egress.attach(transmitter);
        this.out = new ForwardingFramePort(link) {
            @Override
            public void send(ByteBuf frame) {
                egress.sendControl(frame, priorityOf(frame));
            }
        };
        this.pfc = new PortPfc(this);
        this.pause = new PortPause(this, flowControlMode == FlowControlMode.PAUSE);
        this.flowControl = flowControlMode == FlowControlMode.PAUSE ? pause : pfc;
        this.neighbors = new Neighbors(mac, ipv4, nic.agentScheduler(), out, alloc, counters, l2);
        this.nd = new NeighborDiscovery(mac, addresses.get(0), own6, nic.agentScheduler(), out,
                alloc, counters, l2);
        this.up = link.isUp();
    }

    /** Starts taking frames and link changes from the link (after the NIC is built). */
    void attach() {
        link.setReceiver((p, frame) -> nic.receive.onFrame(this, frame));
        // the link tells its listeners on its owner thread, the NIC's
        link.addLinkStateListener((p, isUp) -> linkChanged(isUp));
    }

    private void linkChanged(boolean isUp) {
        if (isUp == up) {
            return;
        }
        up = isUp;
        if (!isUp) {
            counters.increment(NicCounter.LINK_DOWNED);
        }
        nic.portChanged(this, isUp);
    }

    /** The IBA port number, 1 or 2. */
    public int number() {
        return number;
    }

    public long mac() {
        return mac;
    }

    public int ipv4() {
        return ipv4;
    }

    /** Whether the port's link is up ({@code IBV_PORT_ACTIVE}) as the NIC last saw it. */
    public boolean isActive() {
        return nic.call(() -> up);
    }

    /** Owner thread. */
    boolean isUp() {
        return up;
    }

    /** The port's counters ({@code rdma statistic show link DEV/N}). */
    public CounterSet<NicCounter> counters() {
        return counters;
    }

    public Gid gid(int index) {
        if (index < 0 || index >= gids.length) {
            throw new IllegalArgumentException("gid index must be 0.." + (gids.length - 1) + " on port " + number
                    + ": " + index);
        }
        return gids[index];
    }

    public int gidTableSize() {
        return gids.length;
    }

    /** The type of GID {@code index} ({@code ibv_query_gid_type}). */
    public GidType gidType(int index) {
        gid(index); // the same message for an index out of the table
        return gidTypes[index];
    }

    /** Whether the port lists RoCEv1 GIDs (and so takes RoCEv1 frames). */
    public boolean hasRoceV1() {
        return gidTypes[0] == GidType.ROCE_V1;
    }

    /**
     * The index of {@code gid} in the port's GID table ({@code ibv_query_gid} in reverse): its
     * RoCEv2 entry, where RoCEv1 lists the address too.
     */
    public int gidIndex(Gid gid) {
        return gidIndex(gid, GidType.ROCE_V2);
    }

    /** The index of {@code gid}'s entry of type {@code type}. */
    public int gidIndex(Gid gid, GidType type) {
        for (int i = 0; i < gids.length; i++) {
            if (gids[i].equals(gid) && gidTypes[i] == type) {
                return i;
            }
        }
        throw new IllegalArgumentException("no " + type.sysfsName() + " GID " + gid + " in the table of " + nic.name()
                + " port " + number);
    }

    /** The index of the port's IPv4-mapped GID of type {@code type} (rxe: 1; ConnectX: 2 for v1, 3 for v2). */
    public int ipv4GidIndex(GidType type) {
        return gidIndex(Gid.ipv4Mapped(ipv4), type);
    }

    /** Whether the 16 bytes at {@code off} of {@code b} are one of the port's RoCEv1 GIDs (owner thread). */
    boolean isOwnRoceV1Gid(ByteBuf b, int off) {
        for (int i = 0; i < gids.length; i++) {
            if (gidTypes[i] == GidType.ROCE_V1 && gids[i].matches(b, off)) {
                return true;
            }
        }
        return false;
    }

    /** The link speed the port's transmitter sends at (0: an unlimited port). */
    public long linkSpeedBitsPerSecond() {
        return linkSpeed;
    }

    /**
     * How long the port takes to act on a received PFC XOFF, in nanoseconds ({@link
     * SoftNic.Builder#pauseResponse} at the port's PFC speed).
     */
    public long pauseResponseNanos() {
        return egress.pauseResponseNanos();
    }

    /** The port's transmitter (the line-rate pacer its egress feeds). */
    public Transmitter transmitter() {
        return transmitter;
    }

    /**
     * Adds a static neighbour entry on this port alone (as {@code ip neigh add ... dev PORT}), for a
     * dual-port NIC whose ports are cabled to different routers; {@code SoftNic.addNeighbor} adds one
     * on every port. Any thread.
     */
    public void addNeighbor(Gid peer, long peerMac) {
        java.util.Objects.requireNonNull(peer, "peer");
        nic.call(() -> {
            learn(peer, peerMac);
            return null;
        });
    }

    /** Records a known MAC for {@code peer} (owner thread). */
    void learn(Gid peer, long peerMac) {
        if (peer.isIpv4Mapped()) {
            neighbors.add(peer.ipv4(), peerMac);
        } else {
            nd.add(peer, peerMac);
        }
    }

    /**
     * Sends the data packet {@code frame} a QP just built ({@link PacketWriter#finish()}) along
     * {@code route}, for the transmitter that is pulling the QP: its next hop resolved, it is the
     * {@linkplain SendStep.Frame frame} the pull returns; one waiting for ARP or neighbour discovery
     * is {@linkplain SendStep#PARKED parked} there and later goes out through the control queue, in
     * order; one written in place in the port's send buffer (UDP endpoint mode) is committed there
     * ({@link SendStep#WRITTEN_IN_PLACE}). Owner thread.
     */
    SendStep emit(Route route, ByteBuf frame) {
        if (writer.takeClaim(frame)) {
            // written in place in the port's send buffer (UDP endpoint mode): no frame, no neighbour
            if (nic.isClosed()) {
                writer.sink().abort();
                return SendStep.NO_PACKET;
            }
            counters.increment(NicCounter.SENT_PKTS);
            writer.sink().commit();
            return SendStep.WRITTEN_IN_PLACE;
        }
        if (nic.isClosed()) {
            frame.release();
            return SendStep.NO_PACKET;
        }
        counters.increment(NicCounter.SENT_PKTS);
        boolean resolved = route.ipv6 ? nd.resolveOrPark(route.dstGid, frame)
                : neighbors.resolveOrPark(route.dstIpv4, frame);
        return resolved ? sent.carry(frame) : SendStep.PARKED;
    }

    /**
     * Sends a control frame (an ACK, NAK or ATOMIC ACK, a CNP) along {@code route}: it goes ahead
     * of the QPs' data, at its own priority, after ARP or neighbour discovery if needed. Owner thread.
     */
    void sendControl(Route route, ByteBuf frame) {
        if (writer.takeClaim(frame)) {
            if (nic.isClosed()) {
                writer.sink().abort();
                return;
            }
            counters.increment(NicCounter.SENT_PKTS);
            writer.sink().commit();
            return;
        }
        if (nic.isClosed()) {
            frame.release();
            return;
        }
        counters.increment(NicCounter.SENT_PKTS);
        if (route.ipv6) {
            nd.send(route.dstGid, frame);
        } else {
            neighbors.send(route.dstIpv4, frame);
        }
    }

    /**
     * Whether frames along {@code route} are parked while ARP or neighbour discovery resolves the
     * next hop (owner thread): they have not left, so they cannot have been lost.
     */
    boolean resolving(Route route) {
        return route != null && (route.ipv6 ? nd.isResolving(route.dstGid) : neighbors.isResolving(route.dstIpv4));
    }

    /**
     * The 802.1p priority a frame leaves at, read from its own header as a NIC's egress classifies
     * it: the PCP of its VLAN tag; untagged, as the port's DCB trust says ({@code mlnx_qos --trust}):
     * trusting DSCP, its DSCP's priority through the {@code dscp2prio} map (mlx5's default DSCP / 8:
     * DSCP 26 is priority 3, DSCP 48 priority 6), trusting PCP priority 0, which an untagged frame
     * carries; anything else (ARP, an untagged RoCEv1 frame, which has no DSCP) priority 0. CNPs and
     * ACKs go by it too.
     */
    int priorityOf(ByteBuf frame) {
        int type = frame.getUnsignedShort(Ethernet.ETHER_TYPE);
        if (type == EtherType.VLAN) {
            return Vlan.pcp(frame, Ethernet.ETHER_TYPE);
        }
        if (type == EtherType.IPV4) {
            return nic.dcb().priorityOfUntagged(number, Ipv4.dscp(frame, Ethernet.LENGTH));
        }
        if (type == EtherType.IPV6) {
            return nic.dcb().priorityOfUntagged(number, Ipv6.dscp(frame, Ethernet.LENGTH));
        }
        return 0;
    }

    /** Stops the port: its storm, its egress, its parked frames. Owner thread. */
    void close() {
        pfc.stopStorm();
        egress.close();
        neighbors.releaseAll();
        nd.releaseAll();
    }

    @Override
    public String toString() {
        return nic.name() + "/" + number + " " + MacAddress.toString(mac) + " " + Ipv4.toString(ipv4);
    }
}
