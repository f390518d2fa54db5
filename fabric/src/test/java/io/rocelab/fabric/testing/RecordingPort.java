package io.rocelab.fabric.testing;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.port.FrameReceiver;
import io.rocelab.fabric.time.Clock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The test's end of a wire, which records every frame that reaches it and releases it, as a NIC
 * that consumed it would. Either side works: as a link's {@link FrameReceiver} it records what the
 * link delivers ({@link #onFrame}); attached to a device as its port, it records what the device
 * sends ({@link #send}), and {@link #deliver} plays a frame received off the wire. Each frame
 * becomes a {@link Delivery}: time by the clock, {@link TestFrames} id, BTH PSN, PFC or not,
 * length, bytes when asked for, thread. Thread-safe for reading from a test thread while the
 * owner thread records.
 */
public final class RecordingPort extends AbstractFramePort implements FrameReceiver {

    private final Clock clock;
    private final TestFrames frames;
    private final boolean keepBytes;
    private final ParsedFrame parsed = new ParsedFrame();
    private final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());

    /**
     * A receiver for a link's port (or any {@link FramePort}).
     *
     * @param clock     time stamps the deliveries
     * @param frames    tracks the received buffers for the release check (may be {@code null})
     * @param keepBytes whether to copy the frame bytes (costly for 10^5 frames)
     */
    public RecordingPort(Clock clock, TestFrames frames, boolean keepBytes) {
        this("recorder", clock, frames, keepBytes);
    }

    /** A device's port {@code name}, recording what the device sends, stamped by {@code clock}. */
    public RecordingPort(String name, Clock clock) {
        this(name, clock, null, false);
    }

    private RecordingPort(String name, Clock clock, TestFrames frames, boolean keepBytes) {
        super(name, true);
        this.clock = clock;
        this.frames = frames;
        this.keepBytes = keepBytes;
    }

    /** Hands {@code frame} to the device as received on this port; call on the device's owner thread. */
    public void deliver(ByteBuf frame) {
        receiver().onFrame(this, frame);
    }

    /** A frame the device sent out of this port. */
    @Override
    public void send(ByteBuf frame) {
        record(frame);
    }

    /** A frame a link delivered. */
    @Override
    public void onFrame(FramePort port, ByteBuf frame) {
        record(frame);
    }

    private void record(ByteBuf frame) {
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
            int psn;
            boolean pfc;
            synchronized (parsed) {
                boolean ok = parsed.parse(frame) == null;
                psn = ok && parsed.isRoce() ? parsed.psn() : -1;
                pfc = ok && parsed.kind() == FrameKind.PFC;
            }
            deliveries.add(new Delivery(clock.nanoTime(), id, psn, pfc, length, bytes,
                    Thread.currentThread().getName()));
        } finally {
            frame.release();
        }
    }

    public List<Delivery> deliveries() {
        synchronized (deliveries) {
            return List.copyOf(deliveries);
        }
    }

    /** @return the frames recorded, PFC left out */
    public List<Delivery> data() {
        return deliveries().stream().filter(d -> !d.pfc()).toList();
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
