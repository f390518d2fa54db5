package io.rocelab.sw.testkit;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.time.Scheduler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A switch port with a test behind it instead of a link: {@link #deliver} plays a frame received
 * off the wire, and every frame the switch sends is stamped with the scheduler's time, its BTH PSN
 * (or -1) and whether it is PFC, then released. For real-time tests: the records are readable from
 * the test thread while the switch runs.
 */
public final class RecordingPort extends AbstractFramePort {
    /** One frame the switch sent. */
    public record Sent(long nanos, int psn, boolean pfc, int length) {
    }

    private final Scheduler scheduler;
    private final ParsedFrame parsed = new ParsedFrame();
    public final List<Sent> sent = new CopyOnWriteArrayList<>();

    public RecordingPort(String name, Scheduler scheduler) {
        super(name, true);
        this.scheduler = scheduler;
    }

    /** Hands {@code frame} to the switch as received on this port; call on the switch's owner thread. */
    public void deliver(ByteBuf frame) {
        receiver().onFrame(this, frame);
    }

    @Override
    public void send(ByteBuf frame) {
        try {
            boolean ok = parsed.parse(frame) == null;
            sent.add(new Sent(scheduler.nanoTime(), ok && parsed.isRoce() ? parsed.psn() : -1,
                ok && parsed.kind() == io.rocelab.codec.FrameKind.PFC, frame.readableBytes()));
        } finally {
            frame.release();
        }
    }

    /** @return the data frames sent (PFC left out) */
    public List<Sent> data() {
        return sent.stream().filter(s -> !s.pfc()).toList();
    }
}
