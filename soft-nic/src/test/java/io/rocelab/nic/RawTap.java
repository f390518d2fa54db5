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
    /** Frames whose send throws, as a port with a bug would (recorded all the same). */
    private volatile java.util.function.Predicate<byte[]> fail = b -> false;

    RawTap(FramePort delegate) {
        super(delegate);
    }

    @Override
    public void send(ByteBuf frame) {
        byte[] bytes = ByteBufUtil.getBytes(frame);
        synchronized (sent) {
            sent.add(bytes);
        }
        if (fail.test(bytes)) {
            frame.release();
            throw new IllegalStateException("injected failure of the port");
        }
        delegate.send(frame);
    }

    /** From now on, throws from {@code send} of the frames {@code which} accepts (after releasing them). */
    void fail(java.util.function.Predicate<byte[]> which) {
        this.fail = which;
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
