package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;

/**
 * The port of a NIC under attack: frames are put on its receive path by hand, each in a buffer
 * whose capacity is exactly the frame, as a switch's flood copies are: a read past the end of the
 * frame then throws instead of reading stale bytes, which is how such a read shows.
 */
public final class InjectingPort extends ForwardingFramePort {
    private FrameReceiver receiver;

    InjectingPort(FramePort delegate) {
        super(delegate);
    }

    @Override
    public void setReceiver(FrameReceiver r) {
        receiver = r;
        super.setReceiver(r);
    }

    /** Delivers a copy of {@code frame} in a buffer exactly as large as the frame. */
    public void inject(byte[] frame) {
        ByteBuf b = Unpooled.wrappedBuffer(frame.clone());
        if (b.capacity() != frame.length) {
            throw new AssertionError("a buffer of " + b.capacity() + " bytes for a frame of " + frame.length);
        }
        receiver.onFrame(this, b);
    }
}
