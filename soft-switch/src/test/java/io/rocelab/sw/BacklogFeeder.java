package io.rocelab.sw;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.fabric.testing.SinkPort;
import io.rocelab.fabric.time.Scheduler;

/** Keeps Ethernet0's egress queue about {@code backlogBytes} deep by feeding copies of a frame, on the owner thread. */
final class BacklogFeeder implements Runnable {
    private final SoftSwitch sw;
    private final SinkPort in;
    private final ByteBuf template;
    private final ByteBufAllocator alloc;
    private final Scheduler scheduler;
    private final long backlogBytes;
    boolean stopped;

    BacklogFeeder(SoftSwitch sw, SinkPort in, ByteBuf template, ByteBufAllocator alloc, Scheduler scheduler,
                  long backlogBytes) {
        this.sw = sw;
        this.in = in;
        this.template = template;
        this.alloc = alloc;
        this.scheduler = scheduler;
        this.backlogBytes = backlogBytes;
    }

    @Override
    public void run() {
        if (stopped) {
            return;
        }
        for (int k = 0; k < 512 && sw.egress(0).queuedBytes() < backlogBytes; k++) {
            ByteBuf f = alloc.directBuffer(template.readableBytes());
            f.writeBytes(template, template.readerIndex(), template.readableBytes());
            in.deliver(f);
        }
        scheduler.scheduleUncancellable(20_000, this);
    }
}
