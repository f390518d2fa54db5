package io.rocelab.fabric.testing;

import io.netty.buffer.ByteBuf;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.time.Clock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A receiver that records every frame (time, id, bytes, thread) and releases it, as a NIC that
 * consumed it would. Thread-safe for reading from a test thread.
 */
public final class RecordingReceiver implements FrameReceiver {

    private final Clock clock;
    private final TestFrames frames;
    private final boolean keepBytes;
    private final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param clock     time stamps the deliveries
     * @param frames    tracks the received buffers for the release check (may be {@code null})
     * @param keepBytes whether to copy the frame bytes (costly for 10^5 frames)
     */
    public RecordingReceiver(Clock clock, TestFrames frames, boolean keepBytes) {
        this.clock = clock;
        this.frames = frames;
        this.keepBytes = keepBytes;
    }

    @Override
    public void onFrame(FramePort port, ByteBuf frame) {
        try {
            if (frames != null) {
                frames.track(frame);
            }
            final int length = frame.readableBytes();
            final int id = length >= TestFrames.MIN_LENGTH ? TestFrames.id(frame) : -1;
            byte[] bytes = null;
            if (keepBytes) {
                bytes = new byte[length];
                frame.getBytes(frame.readerIndex(), bytes);
            }
            deliveries.add(new Delivery(clock.nanoTime(), id, length, bytes, Thread.currentThread().getName()));
        } finally {
            frame.release();
        }
    }

    public List<Delivery> deliveries() {
        synchronized (deliveries) {
            return List.copyOf(deliveries);
        }
    }

    public int count() {
        return deliveries.size();
    }

    public List<Integer> ids() {
        return deliveries().stream().map(Delivery::id).toList();
    }

    public List<Long> times() {
        return deliveries().stream().map(Delivery::timeNanos).toList();
    }
}
