package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.ForwardingFramePort;
import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic reorderer on a NIC's transmit side, as an adaptive-routing fabric that sprays a
 * flow's packets over several paths delivers them: once {@linkplain #hold armed}, it keeps the next
 * request frames the NIC sends instead of passing them on, and the test then delivers them in the
 * order it wants ({@link #release}), drops some (a real loss) or delivers one twice (a duplicate).
 * Every other frame (ACKs, READ responses, ARP) passes at once.
 */
final class ReorderingPort extends ForwardingFramePort {
    private final List<byte[]> held = new ArrayList<>();
    private int toHold;
    /** Which frames are kept: requests, or (on the responder's side) READ responses and ACKs. */
    private java.util.function.Predicate<Opcode> which = op -> op.has(Opcode.REQUEST);

    ReorderingPort(FramePort delegate) {
        super(delegate);
    }

    /** Keeps the next {@code n} request frames. */
    void hold(int n) {
        which = op -> op.has(Opcode.REQUEST);
        toHold = n;
    }

    /** Keeps the next {@code n} response frames (READ responses, ACKs, ATOMIC ACKs). */
    void holdResponses(int n) {
        which = op -> !op.has(Opcode.REQUEST);
        toHold = n;
    }

    /** Request frames kept so far, in the order the NIC sent them. */
    int held() {
        return held.size();
    }

    /** The PSN of the {@code i}-th kept frame. */
    int psn(int i) {
        return WireTap.decode("held", held.get(i)).psn();
    }

    /** Delivers the {@code i}-th kept frame (it may be delivered again: a duplicate). */
    void release(int i) {
        delegate.send(Unpooled.wrappedBuffer(held.get(i).clone()));
    }

    /** Delivers the kept frames in {@code order} (indices into the kept frames; a missing index is a loss). */
    void release(int... order) {
        for (int i : order) {
            release(i);
        }
    }

    @Override
    public void send(ByteBuf frame) {
        if (toHold > 0) {
            byte[] bytes = ByteBufUtil.getBytes(frame);
            WireTap.Seen s = WireTap.decode("a", bytes);
            if (s != null && which.test(s.opcode())) {
                frame.release();
                held.add(bytes);
                toHold--;
                return;
            }
        }
        delegate.send(frame);
    }
}
