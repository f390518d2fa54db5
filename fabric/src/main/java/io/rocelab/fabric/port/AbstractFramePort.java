package io.rocelab.fabric.port;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The bookkeeping every {@link FramePort} shares: name, receiver, link state and its listeners.
 *
 * <p>Listeners sit in a copy-on-write list: they are added while a lab is built and read on every
 * state change, which is rare, so iteration must be safe against a listener that unregisters itself.
 */
public abstract class AbstractFramePort implements FramePort {

    private final String name;
    private final List<LinkStateListener> listeners = new CopyOnWriteArrayList<>();
    private volatile FrameReceiver receiver;
    private volatile boolean up;
    private volatile Runnable writabilityListener;

    /**
     * @param name        the port's name
     * @param initiallyUp the link state before the first change
     */
    protected AbstractFramePort(String name, boolean initiallyUp) {
        this.name = Objects.requireNonNull(name, "name");
        this.up = initiallyUp;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void setReceiver(FrameReceiver receiver) {
        this.receiver = receiver;
    }

    /**
     * @return the current receiver, or {@code null}
     */
    protected final FrameReceiver receiver() {
        return receiver;
    }

    @Override
    public final boolean isUp() {
        return up;
    }

    @Override
    public final void addLinkStateListener(LinkStateListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public final boolean removeLinkStateListener(LinkStateListener listener) {
        return listeners.remove(listener);
    }

    @Override
    public final void setWritabilityListener(Runnable listener) {
        this.writabilityListener = listener;
    }

    /** Tells the writability listener that the port is writable again. Call on the owner thread. */
    protected final void fireWritable() {
        Runnable l = writabilityListener;
        if (l != null) {
            l.run();
        }
    }

    /**
     * Records a new link state and, if it changed, tells the listeners. Call on the owner thread.
     *
     * @param newState the new state
     * @return {@code true} if the state changed
     */
    protected final boolean updateLinkState(boolean newState) {
        if (up == newState) {
            return false;
        }
        up = newState;
        for (LinkStateListener listener : listeners) {
            listener.onLinkStateChange(this, newState);
        }
        return true;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + (up ? ", up" : ", down") + "]";
    }
}
