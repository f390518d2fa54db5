package io.rocelab.sw.bench;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.AbstractFramePort;

/**
 * A port with nothing behind it: {@link #deliver} hands a frame to whoever receives on this port
 * (the switch), and every frame sent out of it is counted and released at once. So a benchmark
 * measures the switch and not a link model or a socket. Owner thread only.
 */
final class BenchPort extends AbstractFramePort {
    long sentFrames;
    long sentBytes;

    BenchPort(String name) {
        super(name, true);
    }

    /** Gives {@code frame} to the receiver, as a real port does with a frame off the wire. */
    void deliver(ByteBuf frame) {
        receiver().onFrame(this, frame);
    }

    @Override
    public void send(ByteBuf frame) {
        sentFrames++;
        sentBytes += frame.readableBytes();
        frame.release();
    }
}
