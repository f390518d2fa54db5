package io.rocelab.lab.captures;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.capture.CaptureWriter;
import io.rocelab.codec.capture.LinkType;
import io.rocelab.codec.ib.Opcode;
import java.io.IOException;

/**
 * Writes a deterministic exchange of frames between two hosts to a capture: each frame starts
 * when the previous one has been serialized at the link rate plus a fixed turnaround, so the same
 * code always produces the same bytes (timestamps included).
 */
final class Conversation implements AutoCloseable {
    /** 2026-01-01T00:00:00Z: a fixed epoch, so regenerated files are byte-identical. */
    static final long EPOCH_NANOS = 1_767_225_600_000_000_000L;
    private static final long LINK_BITS_PER_SECOND = 100_000_000_000L;
    private static final long TURNAROUND_NANOS = 2_000;

    private final CaptureWriter writer;
    private final int iface;
    private long now = EPOCH_NANOS;
    private int ipVersion = 4;
    private RoceFrame.VlanTag vlan;
    private int trafficClass = 26 << 2 | 2; // DSCP 26, ECT(0): the usual RoCE class

    Conversation(CaptureWriter writer, String interfaceName) throws IOException {
        this.writer = writer;
        this.iface = writer.addInterface(interfaceName, LinkType.ETHERNET, 0, LINK_BITS_PER_SECOND, null);
    }

    Conversation ipv6() {
        ipVersion = 6;
        return this;
    }

    Conversation vlan(int pcp, int vid) {
        vlan = RoceFrame.VlanTag.dot1q(pcp, vid);
        return this;
    }

    Conversation trafficClass(int dscp, int ecn) {
        trafficClass = dscp << 2 | ecn;
        return this;
    }

    /** A frame from {@code src} to {@code dst}'s QP, addresses and ports filled in. */
    RoceFrame frame(Host src, Host dst, int srcQpn, int dstQpn, Opcode opcode, int psn) {
        RoceFrame f = new RoceFrame().ethernet(dst.mac, src.mac).udp(Host.sourcePort(srcQpn), 4791)
                .trafficClass(trafficClass).opcode(opcode).destQp(dstQpn).psn(psn);
        if (ipVersion == 4) {
            f.ipv4(src.ipv4, dst.ipv4).ipId(src.takeIpId());
        } else {
            f.ipv6(src.ipv6, dst.ipv6).flowLabel(Host.sourcePort(srcQpn) & 0xFFFFF);
        }
        if (vlan != null) {
            f.vlan(vlan);
        }
        return f;
    }

    void write(RoceFrame frame, String comment) throws IOException {
        write(frame.encode(UnpooledByteBufAllocator.DEFAULT), comment);
    }

    /** Writes and releases {@code frame}. */
    void write(ByteBuf frame, String comment) throws IOException {
        try {
            writeRetained(frame, comment);
        } finally {
            frame.release();
        }
    }

    private void writeRetained(ByteBuf frame, String comment) throws IOException {
        writer.write(iface, now, frame, comment);
        long bits = (frame.readableBytes() + 24L) * 8;
        now += bits * 1_000_000_000L / LINK_BITS_PER_SECOND + TURNAROUND_NANOS;
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
