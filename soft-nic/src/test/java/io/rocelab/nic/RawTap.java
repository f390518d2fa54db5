package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.ForwardingFramePort;
import java.util.ArrayList;
import java.util.List;

/** A port decorator keeping a copy of every frame sent through it, whatever it carries (ARP, ND, RoCE). */
final class RawTap extends ForwardingFramePort {
    final List<byte[]> sent = new ArrayList<>();

    RawTap(FramePort delegate) {
        super(delegate);
    }

    @Override
    public void send(ByteBuf frame) {
        synchronized (sent) {
            sent.add(ByteBufUtil.getBytes(frame));
        }
        delegate.send(frame);
    }

    /** Frames with EtherType {@code type} at offset 12 (untagged) or 16 (one 802.1Q tag). */
    List<byte[]> ofType(int type) {
        synchronized (sent) {
            return sent.stream().filter(b -> etherType(b) == type).toList();
        }
    }

    static int etherType(byte[] b) {
        int t = ((b[12] & 0xFF) << 8) | (b[13] & 0xFF);
        return t == 0x8100 ? ((b[16] & 0xFF) << 8) | (b[17] & 0xFF) : t;
    }
}
