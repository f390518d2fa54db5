package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.ForwardingFramePort;
import io.rocelab.fabric.port.FramePort;

/** A port whose transmitter can die silently: its link stays up, what it sends is lost (counted). */
public final class MutePort extends ForwardingFramePort {
    private volatile boolean mute;
    private long lost;

    MutePort(FramePort delegate) {
        super(delegate);
    }

    public void mute(boolean on) {
        mute = on;
    }

    public long lost() {
        return lost;
    }

    @Override
    public void send(ByteBuf frame) {
        if (mute) {
            lost++;
            frame.release();
            return;
        }
        delegate.send(frame);
    }
}
