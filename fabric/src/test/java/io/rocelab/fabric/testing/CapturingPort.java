package io.rocelab.fabric.testing;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.AbstractFramePort;
import java.util.ArrayList;
import java.util.List;

/**
 * A switch port with a test behind it: {@link #deliver} plays a frame received off the wire, and
 * every frame the switch sends is kept whole for the test to inspect. The test owns what
 * {@link #take()} returns and must release it ({@link #releaseAll}).
 */
public final class CapturingPort extends AbstractFramePort {
    private final List<ByteBuf> sent = new ArrayList<>();

    public CapturingPort(String name) {
        super(name, true);
    }

    /** Hands {@code frame} to the switch as received on this port; call on the switch's owner thread. */
    public void deliver(ByteBuf frame) {
        receiver().onFrame(this, frame);
    }

    /** Takes the link up or down, telling the switch. */
    public void setUp(boolean up) {
        updateLinkState(up);
    }

    @Override
    public void send(ByteBuf frame) {
        sent.add(frame);
    }

    /** @return the frames sent since the last call, now owned by the caller */
    public List<ByteBuf> take() {
        List<ByteBuf> out = new ArrayList<>(sent);
        sent.clear();
        return out;
    }

    /** Releases every frame in {@code frames}. */
    public static void releaseAll(List<ByteBuf> frames) {
        frames.forEach(ByteBuf::release);
    }
}
