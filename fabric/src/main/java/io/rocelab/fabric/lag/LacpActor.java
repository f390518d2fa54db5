package io.rocelab.fabric.lag;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Lacpdu;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * LACP on one aggregatable port (IEEE 802.1AX-2014 6.4): the receive machine (CURRENT, EXPIRED,
 * DEFAULTED, PORT_DISABLED), periodic transmission (every second while the partner asks for the
 * short timeout, else every 30 s), transmission (at most three LACPDUs a second), and the mux
 * machine with independent control (DETACHED, WAITING, ATTACHED, COLLECTING, DISTRIBUTING):
 *
 * <ul>
 *   <li>the port collects only once selected, attached and the partner says it is in sync, and
 *       distributes only once the partner says it collects: a port is used only when the
 *       partner's state says so;</li>
 *   <li>an LACPDU restarts current_while (3 s with the short timeout, 90 s with the long one);
 *       when it runs out the partner is EXPIRED (no longer in sync: the port stops collecting and
 *       distributing), and after as long again DEFAULTED (the partner forgotten, the port
 *       unselected). So a partner that stops sending while the link stays up is out of the
 *       aggregation within three LACPDU periods;</li>
 *   <li>which ports aggregate is the {@link LacpAggregator}'s decision ({@link #setSelected}).</li>
 * </ul>
 *
 * <p>Time only from the injected scheduler; owner thread only.
 */
public final class LacpActor {
    public static final long FAST_PERIODIC_NANOS = 1_000_000_000L;
    public static final long SLOW_PERIODIC_NANOS = 30_000_000_000L;
    public static final long SHORT_TIMEOUT_NANOS = 3 * FAST_PERIODIC_NANOS;
    public static final long LONG_TIMEOUT_NANOS = 3 * SLOW_PERIODIC_NANOS;
    /** Aggregate_Wait_Time: a selected port waits this long before it attaches (802.1AX 6.4.4). */
    public static final long AGGREGATE_WAIT_NANOS = 2_000_000_000L;
    /** At most this many LACPDUs in a Fast_Periodic_Time (802.1AX 6.4.16). */
    private static final int TX_LIMIT = 3;

    /** The receive machine's states (802.1AX Figure 6-18) that the port can rest in. */
    public enum RxState { PORT_DISABLED, EXPIRED, DEFAULTED, CURRENT }

    /** The mux machine's states (802.1AX Figure 6-22, independent control). */
    public enum MuxState { DETACHED, WAITING, ATTACHED, COLLECTING, DISTRIBUTING }

    private final Scheduler scheduler;
    private final ByteBufAllocator alloc;
    private final long sourceMac;
    private final Consumer<ByteBuf> transmit;
    private LacpSettings settings;
    private Consumer<LacpActor> listener = a -> { };
    private LacpAggregator aggregator;

    private Lacpdu.Info partner = Lacpdu.Info.NONE;
    private boolean partnerSync;
    private boolean defaulted = true;
    private boolean expired;
    private boolean portEnabled;
    private boolean selected;
    private boolean ready;
    private RxState rx = RxState.PORT_DISABLED;
    private MuxState mux = MuxState.DETACHED;
    private boolean fallback;

    private Cancellable currentWhile;
    private Cancellable periodic;
    private Cancellable waitWhile;
    private Cancellable txLater;
    private long txWindowStart = -FAST_PERIODIC_NANOS;
    private int txInWindow;

    private long lacpduRx;
    private long lacpduTx;
    private long illegalRx;
    private long expiries;

    /**
     * @param scheduler the device's owner
     * @param settings  what the actor says of itself
     * @param sourceMac the source address of its LACPDUs (the port's or the system's MAC)
     * @param alloc     where its frames come from
     * @param transmit  sends a frame out of the port (takes ownership), never paused
     */
    public LacpActor(Scheduler scheduler, LacpSettings settings, long sourceMac, ByteBufAllocator alloc,
                     Consumer<ByteBuf> transmit) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sourceMac = sourceMac;
        this.alloc = Objects.requireNonNull(alloc, "alloc");
        this.transmit = Objects.requireNonNull(transmit, "transmit");
    }

    /** @param l told (on the owner thread) whenever {@link #collecting()} or {@link #distributing()} changes */
    public void setListener(Consumer<LacpActor> l) {
        listener = Objects.requireNonNull(l, "listener");
    }

    void joined(LacpAggregator a) {
        aggregator = a;
    }

    // ---- inputs ----

    /** The port's link went up or down (port_enabled). */
    public void linkStateChanged(boolean up) {
        if (up == portEnabled) {
            return;
        }
        portEnabled = up;
        if (up) {
            // PORT_DISABLED -> EXPIRED: the partner's information kept but out of sync, short timeout asked
            enterExpired();
            periodicChanged();
            reselect();
        } else {
            rx = RxState.PORT_DISABLED;
            partnerSync = false;
            cancel(currentWhile);
            cancel(periodic);
            currentWhile = null;
            periodic = null;
            reselect();
        }
        runMux();
    }

    /**
     * An LACPDU arrived on the port (CURRENT: the partner recorded, current_while restarted).
     *
     * @param pdu the decoded LACPDU, or null for a Slow Protocols LACP frame that did not decode (counted)
     */
    public void receive(Lacpdu pdu) {
        if (pdu == null) {
            illegalRx++;
            return;
        }
        lacpduRx++;
        if (!portEnabled) {
            return;
        }
        Lacpdu.Info before = partner;
        boolean wasDefaulted = defaulted;
        // recordPDU: the partner as it says it is; in sync only if it says so of a view of us that is right
        partner = pdu.actor();
        Lacpdu.Info us = actorInfo();
        boolean itSeesUs = pdu.partner().samePort(us)
            && pdu.partner().has(Lacpdu.AGGREGATION) == us.has(Lacpdu.AGGREGATION);
        partnerSync = partner.has(Lacpdu.SYNCHRONIZATION) && itSeesUs;
        defaulted = false;
        expired = false;
        rx = RxState.CURRENT;
        restartCurrentWhile(settings.fastRate() ? SHORT_TIMEOUT_NANOS : LONG_TIMEOUT_NANOS);
        // update_NTT: the partner's view of us is out of date
        if (!itSeesUs || (pdu.partner().state() & (Lacpdu.ACTIVITY | Lacpdu.TIMEOUT | Lacpdu.SYNCHRONIZATION))
            != (us.state() & (Lacpdu.ACTIVITY | Lacpdu.TIMEOUT | Lacpdu.SYNCHRONIZATION))) {
            needToTransmit();
        }
        if (before.has(Lacpdu.TIMEOUT) != partner.has(Lacpdu.TIMEOUT) || wasDefaulted) {
            periodicChanged();
        }
        if (wasDefaulted || !before.samePort(partner) || before.has(Lacpdu.AGGREGATION) != partner.has(Lacpdu.AGGREGATION)) {
            reselect();
        }
        runMux();
    }

    /** The aggregator's choice: this port is (or is not) in the aggregation. */
    void setSelected(boolean isSelected) {
        if (selected != isSelected) {
            selected = isSelected;
            runMux();
        }
    }

    /** The aggregator's fallback: with no partner at all, this port forwards as a plain one. */
    void setFallback(boolean on) {
        if (fallback != on) {
            fallback = on;
            listener.accept(this);
        }
    }

    /** A new system id (an MLAG pair agreed on theirs): the partner hears it at once. */
    public void setSettings(LacpSettings newSettings) {
        if (!newSettings.equals(settings)) {
            settings = newSettings;
            needToTransmit();
        }
    }

    // ---- the receive machine's timer ----

    private void enterExpired() {
        rx = RxState.EXPIRED;
        partnerSync = false;
        partner = partner.withState(partner.state() | Lacpdu.TIMEOUT);
        expired = true;
        restartCurrentWhile(SHORT_TIMEOUT_NANOS);
    }

    private void restartCurrentWhile(long nanos) {
        cancel(currentWhile);
        currentWhile = scheduler.schedule(nanos, this::currentWhileExpired);
    }

    private void currentWhileExpired() {
        currentWhile = null;
        if (!portEnabled) {
            return;
        }
        expiries++;
        if (rx == RxState.CURRENT) {
            enterExpired();
            periodicChanged();
        } else if (rx == RxState.EXPIRED) {
            // DEFAULTED: the partner is forgotten (its administrative default: nothing), the port unselected
            rx = RxState.DEFAULTED;
            partner = Lacpdu.Info.NONE;
            partnerSync = false;
            defaulted = true;
            expired = false;
            periodicChanged();
            reselect();
        }
        runMux();
    }

    // ---- periodic transmission ----

    private long periodNanos() {
        return partner.has(Lacpdu.TIMEOUT) || expired ? FAST_PERIODIC_NANOS : SLOW_PERIODIC_NANOS;
    }

    /** The period may have changed: transmit now and every period from now (FAST/SLOW_PERIODIC entered). */
    private void periodicChanged() {
        cancel(periodic);
        periodic = null;
        if (!portEnabled || !settings.active() && !partner.has(Lacpdu.ACTIVITY)) {
            return;
        }
        needToTransmit();
        armPeriodic();
    }

    private void armPeriodic() {
        periodic = scheduler.schedule(periodNanos(), () -> {
            periodic = null;
            if (portEnabled) {
                needToTransmit();
                armPeriodic();
            }
        });
    }

    // ---- transmission ----

    private void needToTransmit() {
        if (!portEnabled || txLater != null) {
            return;
        }
        long now = scheduler.nanoTime();
        if (now - txWindowStart >= FAST_PERIODIC_NANOS) {
            txWindowStart = now;
            txInWindow = 0;
        }
        if (txInWindow >= TX_LIMIT) {
            txLater = scheduler.schedule(txWindowStart + FAST_PERIODIC_NANOS - now, () -> {
                txLater = null;
                needToTransmit();
            });
            return;
        }
        txInWindow++;
        lacpduTx++;
        transmit.accept(new Lacpdu(actorInfo(), partner, 0).frame(alloc, sourceMac));
    }

    // ---- the mux machine ----

    private void runMux() {
        boolean wasCollecting = collecting();
        boolean wasDistributing = distributing();
        MuxState before;
        do {
            before = mux;
            step();
        } while (mux != before);
        if (wasCollecting != collecting() || wasDistributing != distributing()) {
            listener.accept(this);
        }
    }

    private void step() {
        boolean partnerCollecting = partnerSync && partner.has(Lacpdu.COLLECTING);
        switch (mux) {
            case DETACHED -> {
                if (selected && portEnabled) {
                    mux = MuxState.WAITING;
                    ready = false;
                    cancel(waitWhile);
                    waitWhile = scheduler.schedule(AGGREGATE_WAIT_NANOS, () -> {
                        waitWhile = null;
                        ready = true;
                        runMux();
                    });
                }
            }
            case WAITING -> {
                if (!selected || !portEnabled) {
                    cancel(waitWhile);
                    waitWhile = null;
                    detach();
                } else if (ready) {
                    mux = MuxState.ATTACHED;
                    needToTransmit();
                }
            }
            case ATTACHED -> {
                if (!selected || !portEnabled) {
                    detach();
                } else if (partnerSync) {
                    mux = MuxState.COLLECTING;
                    needToTransmit();
                }
            }
            case COLLECTING -> {
                if (!selected || !portEnabled || !partnerSync) {
                    mux = MuxState.ATTACHED;
                    needToTransmit();
                } else if (partnerCollecting) {
                    mux = MuxState.DISTRIBUTING;
                    needToTransmit();
                }
            }
            case DISTRIBUTING -> {
                if (!selected || !portEnabled || !partnerCollecting) {
                    mux = MuxState.COLLECTING;
                    needToTransmit();
                }
            }
        }
    }

    private void detach() {
        mux = MuxState.DETACHED;
        ready = false;
        needToTransmit();
    }

    private void reselect() {
        if (aggregator != null) {
            aggregator.reselect();
        } else {
            setSelected(portEnabled && !defaulted && partner.has(Lacpdu.AGGREGATION));
        }
    }

    // ---- what it says and what it does ----

    /** @return the actor information TLV as sent now */
    public Lacpdu.Info actorInfo() {
        int s = Lacpdu.AGGREGATION;
        if (settings.active()) {
            s |= Lacpdu.ACTIVITY;
        }
        if (settings.fastRate()) {
            s |= Lacpdu.TIMEOUT;
        }
        if (mux == MuxState.ATTACHED || mux == MuxState.COLLECTING || mux == MuxState.DISTRIBUTING) {
            s |= Lacpdu.SYNCHRONIZATION;
        }
        if (mux == MuxState.COLLECTING || mux == MuxState.DISTRIBUTING) {
            s |= Lacpdu.COLLECTING;
        }
        if (mux == MuxState.DISTRIBUTING) {
            s |= Lacpdu.DISTRIBUTING;
        }
        if (defaulted) {
            s |= Lacpdu.DEFAULTED;
        }
        if (expired) {
            s |= Lacpdu.EXPIRED;
        }
        return settings.info(s);
    }

    /** @return whether frames received on the port are taken in */
    public boolean collecting() {
        return portEnabled && (mux == MuxState.COLLECTING || mux == MuxState.DISTRIBUTING || fallback);
    }

    /** @return whether the aggregation sends frames out of the port */
    public boolean distributing() {
        return portEnabled && (mux == MuxState.DISTRIBUTING || fallback);
    }

    /** @return whether the aggregator has this port in the aggregation */
    public boolean selected() {
        return selected;
    }

    /** @return whether the port forwards only by {@code fallback} (no partner heard) */
    public boolean inFallback() {
        return fallback;
    }

    /** @return whether the partner's last LACPDU said it is in sync with a right view of us */
    public boolean partnerInSync() {
        return partnerSync;
    }

    public boolean portEnabled() {
        return portEnabled;
    }

    public boolean defaulted() {
        return defaulted;
    }

    public LacpSettings settings() {
        return settings;
    }

    /** @return what the partner last said of itself ({@link Lacpdu.Info#NONE} when defaulted) */
    public Lacpdu.Info partner() {
        return partner;
    }

    public RxState rxState() {
        return rx;
    }

    public MuxState muxState() {
        return mux;
    }

    public long lacpduRx() {
        return lacpduRx;
    }

    public long lacpduTx() {
        return lacpduTx;
    }

    /** @return LACP frames that did not decode */
    public long illegalRx() {
        return illegalRx;
    }

    /** @return how many times current_while ran out (the partner went quiet) */
    public long expiries() {
        return expiries;
    }

    private static void cancel(Cancellable c) {
        if (c != null) {
            c.cancel();
        }
    }
}
