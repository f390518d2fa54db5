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
 *
 * <p>Two rates come out: frames per wall second, and frames per second of the owner thread's CPU
 * time. On a machine shared with other work the wall rate swings with the time slices the thread
 * gets; the CPU rate counts only the time the thread actually ran, so it is the steadier one.
 */
final class ForwardingDriver implements Runnable {
    private static final int BATCH = 64;

    /** Frames out per wall second and per second of the owner thread's CPU time. */
    record Rate(double perWallSecond, double perCpuSecond) {
    }

    private final FrameSink sink;
    private final ByteBuf[] templates;
    private final ByteBufAllocator alloc;
    private final Scheduler scheduler;
    private final long durationNanos;
    private final int window;
    private final CompletableFuture<Rate> result = new CompletableFuture<>();
    private long startNanos = -1;
    private long startCpuNanos;
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
    Rate runAndWait() {
        scheduler.execute(this);
        return result.join();
    }

    @Override
    public void run() {
        try {
            if (startNanos < 0) {
                startNanos = System.nanoTime();
                startCpuNanos = CpuTime.ofThisThread();
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
                long frames = sink.transmitted() - startTx;
                long cpu = CpuTime.ofThisThread() - startCpuNanos;
                result.complete(new Rate(frames * 1e9 / elapsed, frames * 1e9 / cpu));
            } else {
                scheduler.execute(this);
            }
        } catch (Throwable e) {
            result.completeExceptionally(e);
        }
    }
}
