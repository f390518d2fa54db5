package io.rocelab.sw.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.fabric.time.Scheduler;
import java.util.concurrent.CompletableFuture;

/**
 * Feeds a {@link FrameSink} on its owner thread for a fixed wall time and reports frames out per
 * second. Each frame is a fresh pooled buffer copied from the ingress port's template, as a port
 * receiving off the wire would produce, round robin over the ports. Work goes in batches, and the
 * driver re-queues itself between batches so that the scheduler's timers (the egress shapers'
 * wake-ups) run in real time. No more than {@code window} frames are ever inside the sink, so a
 * sink that cannot keep up is measured at its own pace instead of being flooded into drops.
 */
final class ForwardingDriver implements Runnable {
    private static final int BATCH = 64;

    private final FrameSink sink;
    private final ByteBuf[] templates;
    private final ByteBufAllocator alloc;
    private final Scheduler scheduler;
    private final long durationNanos;
    private final int window;
    private final CompletableFuture<Double> result = new CompletableFuture<>();
    private long startNanos = -1;
    private long startTx;
    private long injected;
    private int next;

    ForwardingDriver(FrameSink sink, ByteBuf[] templates, ByteBufAllocator alloc, Scheduler scheduler,
                     long durationNanos, int window) {
        this.sink = sink;
        this.templates = templates;
        this.alloc = alloc;
        this.scheduler = scheduler;
        this.durationNanos = durationNanos;
        this.window = window;
    }

    /** Starts on the owner thread and waits for the frames-per-second result. */
    double runAndWait() {
        scheduler.execute(this);
        return result.join();
    }

    @Override
    public void run() {
        try {
            if (startNanos < 0) {
                startNanos = System.nanoTime();
                startTx = sink.transmitted();
                injected = startTx + sink.dropped();
            }
            long room = window - (injected - sink.transmitted() - sink.dropped());
            for (int k = 0; k < BATCH && k < room; k++) {
                int port = next;
                next = next + 1 == templates.length ? 0 : next + 1;
                ByteBuf t = templates[port];
                int len = t.readableBytes();
                ByteBuf frame = alloc.directBuffer(len, len);
                frame.writeBytes(t, t.readerIndex(), len);
                injected++;
                sink.receive(port, frame);
            }
            long elapsed = System.nanoTime() - startNanos;
            if (elapsed >= durationNanos) {
                result.complete((sink.transmitted() - startTx) * 1e9 / elapsed);
            } else {
                scheduler.execute(this);
            }
        } catch (Throwable e) {
            result.completeExceptionally(e);
        }
    }
}
