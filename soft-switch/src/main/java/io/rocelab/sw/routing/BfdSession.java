package io.rocelab.sw.routing;

import io.rocelab.codec.routing.BfdPacket;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.BgpConfig;
import java.util.SplittableRandom;

/**
 * One single-hop BFD session in asynchronous mode (RFC 5880, RFC 5881) on a point-to-point link,
 * as FRR's bfdd runs it for a BGP neighbour ({@code neighbor X bfd}).
 *
 * <p>States Down, Init and Up with the three-way handshake of RFC 5880 section 6.8.6 (AdminDown and
 * the poll sequence are not modelled). Up, a packet goes out every Desired Min TX interval less a
 * random 0-25% (section 6.8.7); not Up, at most one a second, as bfdd's slow timer (1 s) does, and at
 * once on every state change. The detection time is the peer's Detect Mult times the larger of our
 * Required Min RX and the peer's Desired Min TX (section 6.8.4): with FRR's defaults, 300 ms x 3 =
 * 900 ms. When it passes without a packet, or the peer says it is Down, or the link loses its
 * carrier, the session goes Down and tells its BGP session, which goes down at once (FRR's BFD
 * integration).
 */
public final class BfdSession {
    /** bfdd's slow transmission interval while the session is not Up. */
    static final long SLOW_TX_NANOS = 1_000_000_000L;

    /** Told when the session leaves Up. */
    public interface Listener {
        void bfdDown(BfdSession session, String why);
    }

    private final Scheduler scheduler;
    private final BgpConfig.Bfd timers;
    private final int myDiscriminator;
    private final SplittableRandom jitter;
    private final java.util.function.Consumer<BfdPacket> out;
    private final Listener listener;
    private int state = BfdPacket.DOWN;
    private int diagnostic;
    private int yourDiscriminator;
    private long detectNanos;
    private Cancellable txTimer;
    private Cancellable detectTimer;
    private boolean linkUp;
    private long upSinceNanos = -1;
    private long packetsSent;
    private long packetsReceived;
    private int downs;

    BfdSession(Scheduler scheduler, BgpConfig.Bfd timers, int myDiscriminator, long seed,
               java.util.function.Consumer<BfdPacket> out, Listener listener) {
        this.scheduler = scheduler;
        this.timers = timers;
        this.myDiscriminator = myDiscriminator;
        this.jitter = new SplittableRandom(seed);
        this.out = out;
        this.listener = listener;
    }

    /** The link's carrier came or went: transmission starts, or the session goes Down at once. */
    void linkStateChanged(boolean up) {
        linkUp = up;
        if (up) {
            transmit();
        } else {
            cancel(txTimer);
            txTimer = null;
            if (state != BfdPacket.DOWN) {
                goDown(BfdPacket.DIAG_DETECTION_EXPIRED, "link down");
            }
        }
    }

    /** A control packet from the peer (RFC 5880 section 6.8.6, the reception rules). */
    void receive(BfdPacket p) {
        packetsReceived++;
        yourDiscriminator = p.myDiscriminator();
        long peerTx = p.desiredMinTxMicros() * 1_000L;
        detectNanos = (long) p.detectMultiplier() * Math.max(timers.intervalNanos(), peerTx);
        int before = state;
        switch (state) {
            case BfdPacket.DOWN -> {
                if (p.state() == BfdPacket.DOWN) {
                    state = BfdPacket.INIT;
                } else if (p.state() == BfdPacket.INIT) {
                    state = BfdPacket.UP;
                }
            }
            case BfdPacket.INIT -> {
                if (p.state() == BfdPacket.INIT || p.state() == BfdPacket.UP) {
                    state = BfdPacket.UP;
                }
            }
            default -> {
                if (p.state() == BfdPacket.DOWN || p.state() == BfdPacket.ADMIN_DOWN) {
                    goDown(BfdPacket.DIAG_NEIGHBOR_DOWN, "neighbor signaled session down");
                    return;
                }
            }
        }
        if (state == BfdPacket.UP && before != BfdPacket.UP) {
            diagnostic = 0;
            upSinceNanos = scheduler.nanoTime();
        }
        if (state != BfdPacket.DOWN) {
            cancel(detectTimer);
            detectTimer = scheduler.schedule(detectNanos, this::detectionTimeExpired);
        }
        if (state != before) {
            transmit();
        }
    }

    private void detectionTimeExpired() {
        detectTimer = null;
        if (state != BfdPacket.DOWN) {
            goDown(BfdPacket.DIAG_DETECTION_EXPIRED, "BFD detection time expired");
        }
    }

    private void goDown(int diag, String why) {
        boolean wasUp = state == BfdPacket.UP;
        state = BfdPacket.DOWN;
        diagnostic = diag;
        upSinceNanos = -1;
        cancel(detectTimer);
        detectTimer = null;
        if (wasUp) {
            downs++;
            listener.bfdDown(this, why);
        }
        if (linkUp) {
            transmit();
        }
    }

    /** Sends a packet now and arms the next one. */
    private void transmit() {
        cancel(txTimer);
        txTimer = null;
        if (!linkUp) {
            return;
        }
        packetsSent++;
        long interval = timers.intervalNanos();
        out.accept(new BfdPacket(state, diagnostic, timers.multiplier(), myDiscriminator,
            state == BfdPacket.DOWN ? 0 : yourDiscriminator, interval / 1_000L, interval / 1_000L));
        long next = state == BfdPacket.UP
            // RFC 5880 6.8.7: 75-100% of the interval (75-90% with a multiplier of 1)
            ? interval - (long) (interval * (timers.multiplier() == 1 ? 0.10 + 0.15 * jitter.nextDouble()
                : 0.25 * jitter.nextDouble()))
            : Math.max(SLOW_TX_NANOS, interval);
        txTimer = scheduler.schedule(next, this::transmit);
    }

    private static void cancel(Cancellable c) {
        if (c != null) {
            c.cancel();
        }
    }

    /** @return My Discriminator: FRR's session id */
    public int discriminator() {
        return myDiscriminator;
    }

    /** @return RFC 5880's state, {@link BfdPacket#UP} etc. */
    public int state() {
        return state;
    }

    public boolean isUp() {
        return state == BfdPacket.UP;
    }

    /** @return the detection time agreed with the peer, 0 before its first packet */
    public long detectNanos() {
        return detectNanos;
    }

    public long packetsSent() {
        return packetsSent;
    }

    public long packetsReceived() {
        return packetsReceived;
    }

    /** @return how often the session left Up */
    public int downs() {
        return downs;
    }

    /** @return when the session came Up, or -1 */
    public long upSinceNanos() {
        return upSinceNanos;
    }
}
