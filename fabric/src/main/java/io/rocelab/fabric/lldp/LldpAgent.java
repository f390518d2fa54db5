package io.rocelab.fabric.lldp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.lldp.Lldpdu;
import io.rocelab.codec.lldp.LldpduException;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * LLDP on one port (IEEE 802.1AB-2016 clause 9), transmit and receive:
 *
 * <ul>
 *   <li><b>Transmission</b>: an LLDPDU every {@code msgTxInterval} (30 s) with TTL
 *       {@code txTTL = min(65535, msgTxInterval x msgTxHold + 1)} = 121 s (9.2.5.22, msgTxHold 4);
 *       after the link comes up and when a new neighbour appears, {@code txFastInit} (4) LLDPDUs
 *       {@code msgFastTx} (1 s) apart (9.2.5.5, 9.2.5.20); when what the port says changes
 *       ({@link #localChanged}), one at once. The credit of 9.2.5.6 bounds how many go in a
 *       burst: {@code txCreditMax} 5, one more each second. What is sent is asked of the device
 *       each time ({@code local}), so a new DCBX setting goes out with the next LLDPDU.</li>
 *   <li><b>Reception</b>: one neighbour per port (a point-to-point link; a different chassis and
 *       port ID replace the one held). It ages out {@code TTL} seconds after its last LLDPDU
 *       ({@code rxInfoAge}, {@code statsAgeoutsTotal}); an LLDPDU with TTL 0 (a shutdown, 9.2.7.1)
 *       removes it at once; so does the link going down (as lldpd does; 802.1AB keeps it to age).
 *       An LLDPDU that 9.2.7.7 discards is counted ({@code statsFramesDiscardedTotal},
 *       {@code statsFramesInErrorsTotal}) and changes nothing.</li>
 *   <li>{@link #shutdown}: the shutdown LLDPDU (TTL 0), then silence (adminStatus disabled).</li>
 * </ul>
 *
 * <p>Time only from the injected scheduler, owner thread only. One timer for transmission and one
 * for ageing, each re-armed only when its deadline moves earlier; an LLDPDU is built every 30 s.
 */
public final class LldpAgent {
    public static final long SECOND = 1_000_000_000L;
    /** msgTxInterval, 802.1AB-2016 9.2.5.7 (default 30 s). */
    public static final long TX_INTERVAL_NANOS = 30 * SECOND;
    /** msgTxHold, 9.2.5.6 (default 4). */
    public static final int TX_HOLD = 4;
    /** txTTL = min(65535, msgTxInterval x msgTxHold + 1), 9.2.5.22. */
    public static final int TTL_SECONDS = (int) Math.min(65535, TX_INTERVAL_NANOS / SECOND * TX_HOLD + 1);
    /** msgFastTx, 9.2.5.5 (default 1 s). */
    public static final long FAST_TX_NANOS = SECOND;
    /** txFastInit, 9.2.5.20 (default 4). */
    public static final int TX_FAST_INIT = 4;
    /** txCreditMax, 9.2.5.21 (default 5). */
    public static final int TX_CREDIT_MAX = 5;

    /** Told on the owner thread when the neighbour appears, changes or goes. */
    public interface Listener {
        /**
         * @param agent    the port's agent
         * @param neighbor what is known now, or null: the neighbour is gone (aged out, shut down,
         *                 link down, replaced by another)
         */
        void neighborChanged(LldpAgent agent, LldpNeighbor neighbor);
    }

    private final Scheduler scheduler;
    private final ByteBufAllocator alloc;
    private final long sourceMac;
    private final Supplier<Lldpdu> local;
    private final Consumer<ByteBuf> transmit;
    private Listener listener = (a, n) -> { };

    private boolean enabled = true;
    private boolean portEnabled;
    private int txFast;
    /** txCredit in nanoseconds of accrual: one LLDPDU costs {@link #SECOND}, at most {@link #TX_CREDIT_MAX} of them. */
    private long txCredit = TX_CREDIT_MAX * SECOND;
    private long creditAt;
    private long nextTx = Long.MAX_VALUE;
    private long txArmedFor = Long.MAX_VALUE;
    private Cancellable txTimer;
    private long ageArmedFor = Long.MAX_VALUE;
    private Cancellable ageTimer;

    private LldpNeighbor neighbor;
    private int nextIndex = 1;

    private long framesOut;
    private long framesIn;
    private long framesDiscarded;
    private long ageouts;
    private long inserts;
    private long deletes;

    /**
     * @param scheduler the device's owner
     * @param alloc     where its frames come from
     * @param sourceMac the source address of its LLDPDUs (the port's MAC)
     * @param local     what the port says of itself, asked at each transmission (its TTL is replaced)
     * @param transmit  sends a frame out of the port (takes ownership), never paused
     */
    public LldpAgent(Scheduler scheduler, ByteBufAllocator alloc, long sourceMac, Supplier<Lldpdu> local,
                     Consumer<ByteBuf> transmit) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.alloc = Objects.requireNonNull(alloc, "alloc");
        this.sourceMac = sourceMac;
        this.local = Objects.requireNonNull(local, "local");
        this.transmit = Objects.requireNonNull(transmit, "transmit");
    }

    /** @param l told whenever the neighbour appears, changes or goes */
    public void setListener(Listener l) {
        listener = Objects.requireNonNull(l, "listener");
    }

    // ---- inputs ----

    /** The port's link went up (portEnabled: transmission starts fast) or down (the neighbour is forgotten). */
    public void linkStateChanged(boolean up) {
        if (up == portEnabled) {
            return;
        }
        portEnabled = up;
        if (up) {
            if (enabled) {
                txFast = TX_FAST_INIT;
                txNow();
            }
        } else {
            txFast = 0;
            nextTx = Long.MAX_VALUE;
            remove(false);
        }
    }

    /** What the port says of itself changed (somethingChangedLocal): an LLDPDU goes out now, credit allowing. */
    public void localChanged() {
        if (enabled && portEnabled) {
            txNow();
        }
    }

    /**
     * An LLDP frame arrived on the port. The caller keeps (and releases) the frame.
     *
     * @param frame the whole frame at its reader index
     */
    public void receive(ByteBuf frame) {
        if (!enabled) {
            return;
        }
        Lldpdu pdu;
        try {
            pdu = Lldpdu.ofFrame(frame);
        } catch (LldpduException e) {
            framesDiscarded++;
            return;
        }
        framesIn++;
        accept(pdu);
    }

    /** A decoded LLDPDU arrived on the port (rxProcessFrame). */
    private void accept(Lldpdu pdu) {
        long now = scheduler.nanoTime();
        boolean same = neighbor != null && neighbor.pdu().chassisId().equals(pdu.chassisId())
            && neighbor.pdu().portId().equals(pdu.portId());
        if (pdu.ttl() == 0) {
            // a shutdown LLDPDU: the information goes now (9.2.7.1, rxTTL 0)
            if (same) {
                remove(false);
            }
            return;
        }
        long expires = now + pdu.ttl() * SECOND;
        if (same) {
            boolean changed = !neighbor.pdu().equals(pdu);
            neighbor = new LldpNeighbor(neighbor.index(), pdu, changed ? now : neighbor.changedNanos(), now, expires);
            armAge(expires);
            if (changed) {
                listener.neighborChanged(this, neighbor);
            }
            return;
        }
        if (neighbor != null) {
            remove(false);
        }
        inserts++;
        neighbor = new LldpNeighbor(nextIndex++, pdu, now, now, expires);
        armAge(expires);
        listener.neighborChanged(this, neighbor);
        if (portEnabled) {
            // a new neighbour: fast transmission, so that it learns of us quickly (9.2.7.7.2, newNeighbor)
            txFast = TX_FAST_INIT;
            txNow();
        }
    }

    /** The shutdown LLDPDU (TTL 0) if the link is up, then no more LLDP on this port (adminStatus disabled). */
    public void shutdown() {
        if (!enabled) {
            return;
        }
        if (portEnabled) {
            send(0);
        }
        enabled = false;
        nextTx = Long.MAX_VALUE;
        remove(false);
    }

    // ---- transmission ----

    private void txNow() {
        refillCredit();
        if (txCredit >= SECOND) {
            send(TTL_SECONDS);
            schedule();
        } else {
            // no credit: as soon as a credit comes
            long at = creditAt + (SECOND - txCredit);
            nextTx = Math.min(nextTx, at);
            armTx(nextTx);
        }
    }

    private void refillCredit() {
        long now = scheduler.nanoTime();
        txCredit = Math.min(TX_CREDIT_MAX * SECOND, txCredit + (now - creditAt));
        creditAt = now;
    }

    private void send(int ttl) {
        refillCredit();
        txCredit = Math.max(0, txCredit - SECOND);
        Lldpdu pdu = local.get().withTtl(ttl);
        framesOut++;
        transmit.accept(pdu.frame(alloc, sourceMac));
    }

    private void schedule() {
        if (txFast > 0) {
            txFast--;
        }
        long delay = txFast > 0 ? FAST_TX_NANOS : TX_INTERVAL_NANOS;
        nextTx = scheduler.nanoTime() + delay;
        armTx(nextTx);
    }

    private void armTx(long at) {
        if (txTimer != null && txArmedFor <= at) {
            return;
        }
        if (txTimer != null) {
            txTimer.cancel();
        }
        txArmedFor = at;
        txTimer = scheduler.scheduleAt(at, this::txTimerFired);
    }

    private void txTimerFired() {
        txTimer = null;
        txArmedFor = Long.MAX_VALUE;
        if (!enabled || !portEnabled || nextTx == Long.MAX_VALUE) {
            return;
        }
        if (scheduler.nanoTime() < nextTx) {
            armTx(nextTx);
            return;
        }
        txNow();
    }

    // ---- ageing ----

    private void armAge(long at) {
        if (ageTimer != null && ageArmedFor <= at) {
            return; // fires earlier and re-arms for the later deadline then
        }
        if (ageTimer != null) {
            ageTimer.cancel();
        }
        ageArmedFor = at;
        ageTimer = scheduler.scheduleAt(at, this::ageTimerFired);
    }

    private void ageTimerFired() {
        ageTimer = null;
        ageArmedFor = Long.MAX_VALUE;
        if (neighbor == null) {
            return;
        }
        if (scheduler.nanoTime() < neighbor.expiresNanos()) {
            armAge(neighbor.expiresNanos());
            return;
        }
        remove(true);
    }

    private void remove(boolean aged) {
        if (neighbor == null) {
            return;
        }
        neighbor = null;
        deletes++;
        if (aged) {
            ageouts++;
        }
        listener.neighborChanged(this, null);
    }

    // ---- what it knows ----

    /** @return the neighbour heard on this port, or null */
    public LldpNeighbor neighbor() {
        return neighbor;
    }

    /** @return whether the agent transmits and receives (not shut down) */
    public boolean enabled() {
        return enabled;
    }

    /** @return LLDPDUs sent ({@code statsFramesOutTotal}; lldpctl's Transmitted) */
    public long framesOut() {
        return framesOut;
    }

    /** @return LLDPDUs received and accepted ({@code statsFramesInTotal}; lldpctl's Received) */
    public long framesIn() {
        return framesIn;
    }

    /** @return LLDPDUs discarded as malformed ({@code statsFramesDiscardedTotal}; lldpctl's Discarded) */
    public long framesDiscarded() {
        return framesDiscarded;
    }

    /** @return neighbours aged out ({@code statsAgeoutsTotal}; lldpctl's Ageout) */
    public long ageouts() {
        return ageouts;
    }

    /** @return neighbours inserted ({@code lldpV2StatsRemTablesInserts}; lldpctl's Inserted) */
    public long inserts() {
        return inserts;
    }

    /** @return neighbours deleted, aged or not ({@code lldpV2StatsRemTablesDeletes}; lldpctl's Deleted) */
    public long deletes() {
        return deletes;
    }
}
