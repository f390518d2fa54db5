package io.rocelab.perftest.nic;

import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.port.FramePort;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;

/**
 * Two soft NICs' worth of plumbing in one process: an event loop for each and an in-memory link
 * between them, for running a tool's server and client in one JVM. Side A is meant for the
 * server, side B for the client. The sides do not own the loops or the link; {@link #close()}
 * stops the loops once both engines are closed.
 */
public final class InProcessFabric implements AutoCloseable {
    /** Link rate of the in-process link: fast enough never to be the bottleneck of a software NIC. */
    public static final long DEFAULT_RATE_GBPS = 100;

    private final RealTimeScheduler schedulerA;
    private final RealTimeScheduler schedulerB;
    private final InProcessLink link;

    private InProcessFabric(long rateGbps, long delayNanos) {
        this.schedulerA = RealTimeScheduler.start("rocelab-nic-a");
        this.schedulerB = RealTimeScheduler.start("rocelab-nic-b");
        this.link = InProcessLink.builder().name("perftest").rateGbps(rateGbps).propagationDelayNanos(delayNanos)
                .build(schedulerA, schedulerB);
    }

    /** Two loops joined by a 100 Gb/s link with 1 us of propagation delay. */
    public static InProcessFabric create() {
        return new InProcessFabric(DEFAULT_RATE_GBPS, 1000);
    }

    /** Two loops joined by a link of the given rate and delay. */
    public static InProcessFabric create(long rateGbps, long delayNanos) {
        return new InProcessFabric(rateGbps, delayNanos);
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
        return new NicAttachment() {
            @Override
            public Scheduler scheduler() {
                return s;
            }

            @Override
            public FramePort port() {
                return p;
            }

            @Override
            public String describe() {
                return text;
            }

            @Override
            public void close() {
                // the fabric owns the loops and the link
            }
        };
    }

    @Override
    public void close() {
        try {
            schedulerA.close();
        } finally {
            schedulerB.close();
        }
    }
}
