package io.rocelab.perftest.nic;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;

/**
 * Two soft NICs' worth of plumbing in one process: an event loop for each and an in-memory link
 * between them, for running a tool's server and client in one JVM. Side A is meant for the
 * server, side B for the client. The sides do not own the loops or the link; {@link #close()}
 * stops the loops once both engines are closed. With busy-poll, both NICs share one owner thread
 * that polls instead of sleeping in epoll: on a two-core machine that is the arrangement with the
 * lowest latency (two spinning NIC threads and the application do not fit two cores).
 */
public final class InProcessFabric implements AutoCloseable {
    /** Link rate of the in-process link: fast enough never to be the bottleneck of a software NIC. */
    public static final long DEFAULT_RATE_GBPS = 100;

    private final Scheduler schedulerA;
    private final Scheduler schedulerB;
    private final InProcessLink link;
    /** Stops the loops. */
    private final Runnable stop;

    private InProcessFabric(long rateGbps, long delayNanos, boolean busyPoll) {
        if (busyPoll) {
            BusyPollScheduler one = BusyPollScheduler.start("rocelab-nics", BusyPollScheduler.idleStrategy("spin"));
            this.schedulerA = one;
            this.schedulerB = one;
            this.stop = one::close;
        } else {
            RealTimeScheduler a = RealTimeScheduler.start("rocelab-nic-a");
            RealTimeScheduler b = RealTimeScheduler.start("rocelab-nic-b");
            this.schedulerA = a;
            this.schedulerB = b;
            this.stop = () -> {
                try {
                    a.close();
                } finally {
                    b.close();
                }
            };
        }
        this.link = InProcessLink.builder().name("perftest").rateGbps(rateGbps).propagationDelayNanos(delayNanos)
                .build(schedulerA, schedulerB);
    }

    /** Two loops joined by a 100 Gb/s link with 1 us of propagation delay. */
    public static InProcessFabric create() {
        return new InProcessFabric(DEFAULT_RATE_GBPS, 1000, false);
    }

    /** The same, on one busy-polling owner thread for both NICs when {@code busyPoll}. */
    public static InProcessFabric create(boolean busyPoll) {
        return new InProcessFabric(DEFAULT_RATE_GBPS, 1000, busyPoll);
    }

    /** Two loops joined by a link of the given rate and delay. */
    public static InProcessFabric create(long rateGbps, long delayNanos) {
        return new InProcessFabric(rateGbps, delayNanos, false);
    }

    public InProcessLink link() {
        return link;
    }

    /** The server's side (port A). */
    public NicAttachment sideA() {
        return side(schedulerA, link.portA(), "in-process link, side A");
    }

    /** The client's side (port B). */
    public NicAttachment sideB() {
        return side(schedulerB, link.portB(), "in-process link, side B");
    }

    private static NicAttachment side(Scheduler s, FramePort p, String text) {
        // the fabric owns the loops and the link
        return PlainAttachment.borrowed(s, p, text);
    }

    @Override
    public void close() {
        stop.run();
    }
}
