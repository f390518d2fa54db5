package io.rocelab.fabric.port;

import io.netty.buffer.ByteBuf;

/**
 * A port that wraps another and passes everything through: the base for taps, filters and fault
 * injectors, which override {@link #send(ByteBuf)} (and see received frames arrive as coming from
 * this wrapper, not from the port inside).
 */
public abstract class ForwardingFramePort implements FramePort {
    protected final FramePort delegate;

    protected ForwardingFramePort(FramePort delegate) {
        this.delegate = delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public void send(ByteBuf frame) {
        delegate.send(frame);
    }

    @Override
    public void setReceiver(FrameReceiver receiver) {
        delegate.setReceiver(receiver == null ? null : (port, frame) -> receiver.onFrame(this, frame));
    }

    @Override
    public boolean isUp() {
        return delegate.isUp();
    }

    @Override
    public void addLinkStateListener(LinkStateListener listener) {
        delegate.addLinkStateListener(listener);
    }

    @Override
    public boolean removeLinkStateListener(LinkStateListener listener) {
        return delegate.removeLinkStateListener(listener);
    }

    @Override
    public boolean isWritable() {
        return delegate.isWritable();
    }

    @Override
    public void setWritabilityListener(Runnable listener) {
        delegate.setWritabilityListener(listener);
    }

    @Override
    public long speedBitsPerSecond() {
        return delegate.speedBitsPerSecond();
    }
}
