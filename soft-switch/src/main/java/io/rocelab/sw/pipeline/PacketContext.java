package io.rocelab.sw.pipeline;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.FrameKind;
import io.rocelab.sw.config.Color;

/**
 * What the pipeline stages know about one frame, filled in stage by stage (as bmv2's packet
 * metadata or the ns-3 RDMA model's packet tags): the parser sets the header offsets, the
 * classifier the traffic class, priority group and queue, the forwarder the egress port, the MMU
 * remembers what it charged so that dequeue can give it back.
 *
 * <p>Contexts are pooled by the switch ({@link ContextPool}) and linked into egress queues through
 * {@link #next}, so the data path allocates nothing per frame. Owner thread only.
 */
public final class PacketContext {
    /** The frame; owned by this context until it is sent or dropped. */
    public ByteBuf frame;
    /** Readable bytes of the frame, the unit of buffer accounting. */
    public int length;
    public int ingressPort;
    public long arrivalNanos;

    // parse
    public FrameKind kind;
    public int l3Offset;
    public int ipVersion;
    public int l4Protocol;
    public int l4Offset;
    /** Offset of the innermost VLAN tag's TPID, or -1. */
    public int vlanOffset;
    public int dscp;
    public int pcp;
    public int ecn;
    public long dstMac;
    public long srcMac;

    /** The frame's VLAN, or {@link VlanStage#UNAWARE} if its ingress port is in no VLAN. */
    public int vid;

    // classify
    public int tc;
    public int priorityGroup;
    public int queue;
    public boolean lossless;
    /** {@link Color}: which WRED thresholds the packet meets. */
    public int color;

    // forward
    public int egressPort;
    public boolean flood;
    public boolean routed;

    // mmu
    /** Bytes charged to the shared pool (the rest came from the reserved part or headroom). */
    public int chargedShared;
    public int chargedHeadroom;
    public int chargedReserved;

    /** Next context in an egress queue. */
    public PacketContext next;

    /** Clears everything but leaves the context reusable. */
    public void reset() {
        frame = null;
        length = 0;
        ingressPort = -1;
        arrivalNanos = 0;
        kind = null;
        l3Offset = -1;
        ipVersion = 0;
        l4Protocol = -1;
        l4Offset = -1;
        vlanOffset = -1;
        dscp = -1;
        pcp = -1;
        ecn = -1;
        dstMac = 0;
        srcMac = 0;
        resetAfterParse();
    }

    /**
     * Clears what {@link ParseStage#apply} does not write, and sets the frame: for a context that
     * is parsed next. The parse fields ({@link #kind}, the offsets, {@link #dscp}, {@link #pcp},
     * {@link #ecn}, the MACs) keep the previous frame's values until the parse writes them, which
     * it does on every path that returns true; on a false return (malformed) the frame is dropped
     * and only the fields set here and below are read.
     */
    void resetForParse(ByteBuf frame, int ingressPort, long arrivalNanos) {
        this.frame = frame;
        this.length = frame.readableBytes();
        this.ingressPort = ingressPort;
        this.arrivalNanos = arrivalNanos;
        resetAfterParse();
    }

    private void resetAfterParse() {
        vid = VlanStage.UNAWARE;
        tc = 0;
        priorityGroup = 0;
        queue = 0;
        lossless = false;
        color = Color.GREEN;
        egressPort = -1;
        flood = false;
        routed = false;
        chargedShared = 0;
        chargedHeadroom = 0;
        chargedReserved = 0;
        next = null;
    }

    /** Copies the classification of {@code other} (for flooded copies), not the frame or MMU charges. */
    public void copyHeadersFrom(PacketContext other) {
        length = other.length;
        ingressPort = other.ingressPort;
        arrivalNanos = other.arrivalNanos;
        kind = other.kind;
        l3Offset = other.l3Offset;
        ipVersion = other.ipVersion;
        l4Protocol = other.l4Protocol;
        l4Offset = other.l4Offset;
        vlanOffset = other.vlanOffset;
        dscp = other.dscp;
        pcp = other.pcp;
        ecn = other.ecn;
        dstMac = other.dstMac;
        srcMac = other.srcMac;
        vid = other.vid;
        tc = other.tc;
        priorityGroup = other.priorityGroup;
        queue = other.queue;
        lossless = other.lossless;
        color = other.color;
    }
}
