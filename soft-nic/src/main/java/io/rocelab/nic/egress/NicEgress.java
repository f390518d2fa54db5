package io.rocelab.nic.egress;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.pfc.PauseTimers;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.tx.TransmitSource;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayDeque;
import java.util.PriorityQueue;

/**
 * What the NIC's {@link Transmitter} pulls from (ns-3's {@code RdmaEgressQueue}, without its
 * congestion-control branches): when the wire is free, the next frame is
 *
 * <ol>
 * <li>a MAC control frame the NIC sends (PFC), never paused (IEEE 802.1Qbb);</li>
 * <li>a control frame (ACK/NAK, ATOMIC ACK, CNP, ARP, neighbour discovery, QP1's MADs), highest
 *     priority first among the priorities PFC does not pause;</li>
 * <li>round robin, the next packet of a QP ({@link EgressFlow}) that has work, is inside its window,
 *     is not paused on its priority and whose next send time (its congestion control's rate, its rate
 *     limit) has come.</li>
 * </ol>
 *
 * <p>A QP that cannot send costs nothing: it is in no list until it is {@linkplain #wake woken}
 * (posted work, an ACK opening its window, an RNR timer ending), or it waits in a list that is
 * looked at only when its time comes (the paced QPs by time, the paused ones by priority).
 *
 * <p>PFC at the host: a received PFC frame stops the priorities it names for its pause times, in
 * quanta of 512 bit times at the NIC's link speed, once the NIC's {@linkplain PauseResponse response
 * time} has passed (by default IEEE 802.3 31B.3.7's bound for the speed: 394 quanta, 2.018 µs at
 * 100 Gb/s): frames of a paused priority that start before then still go out. A zero time resumes
 * at once ({@link PauseTimers} has the rules). mlx5's counters count it: {@code rx_prio<N>_pause}
 * (PFC frames naming N, XOFF or XON), {@code rx_prio<N>_pause_duration} (µs paused, the response
 * time not included), {@code rx_prio<N>_pause_transition} (paused to resumed),
 * {@code tx_prio<N>_pause} (PFC frames sent).
 *
 * <p>A packet a QP writes straight into the port's send buffer (UDP endpoint mode,
 * {@link SendStep#WRITTEN_IN_PLACE}) is sent when it is written: there is no frame for the
 * transmitter, so the pull goes on to the next one, as the transmitter's next pull would, at most
 * {@link Transmitter#MAX_FRAMES_PER_PUMP} of them in one pull; then it returns null with the QPs
 * still ready, and {@link #nextReadyNanos} brings the transmitter back at once, after it has let
 * the owner thread do its other work.
 *
 * <p>Owner thread only. Nothing here may kick the transmitter from inside {@link #pull}: work added
 * while a pull runs (a completion that wakes another QP) is reported by {@link #nextReadyNanos} as
 * ready now.
 */
public final class NicEgress implements TransmitSource {
    private static final int PRIORITIES = Pfc.PRIORITIES;

    private final CounterSet<NicCounter> counters;
    /** The received pauses: which priorities are held, from when, until when. */
    private final PauseTimers pauses;
    /**
     * The received 802.3x PAUSE (IEEE 802.3 Annex 31B): one timer for the whole port, in slot 0;
     * while it runs every priority is held. Kept apart from {@link #pauses} so that each counts its
     * own duration ({@code rx_global_pause_duration} beside {@code rx_prio<N>_pause_duration}).
     */
    private final PauseTimers portPause;
    private final ArrayDeque<ByteBuf> macControl = new ArrayDeque<>();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<ByteBuf>[] control = new ArrayDeque[PRIORITIES];
    /** Bit p set: control queue p holds a frame. */
    private int controlNonEmpty;
    @SuppressWarnings("unchecked")
    private final ArrayDeque<EgressFlow>[] paused = new ArrayDeque[PRIORITIES];
    /** Bit p set: a flow waits for priority p's pause to end. */
    private int pausedNonEmpty;
    private final PriorityQueue<EgressFlow> paced =
        new PriorityQueue<>((a, b) -> Long.compare(a.pacedUntil, b.pacedUntil));
    /** The round robin: a circular list; {@code readyHead} goes next. */
    private EgressFlow readyHead;
    private Transmitter transmitter;
    private boolean pulling;
    private boolean closed;

    /**
     * @param pfcBitsPerSecond the speed PFC's quanta are counted at
     * @param pauseResponse    how long the NIC takes to act on a received XOFF
     */
    public NicEgress(CounterSet<NicCounter> counters, long pfcBitsPerSecond, PauseResponse pauseResponse) {
        this.counters = counters;
        this.pauses = new PauseTimers(pfcBitsPerSecond, pauseResponse.nanosAt(pfcBitsPerSecond));
        this.portPause = new PauseTimers(pfcBitsPerSecond, pauseResponse.nanosAt(pfcBitsPerSecond));
        for (int p = 0; p < PRIORITIES; p++) {
            control[p] = new ArrayDeque<>();
            paused[p] = new ArrayDeque<>();
        }
    }

    /** @return how long this NIC takes to act on a received XOFF, in nanoseconds */
    public long pauseResponseNanos() {
        return pauses.responseNanos();
    }

    public void attach(Transmitter t) {
        this.transmitter = t;
    }

    Transmitter transmitter() {
        return transmitter;
    }

    /** Queues a control frame at priority {@code priority} and starts the transmitter if it is idle. */
    public void sendControl(ByteBuf frame, int priority) {
        if (closed) {
            frame.release();
            return;
        }
        control[priority].add(frame);
        controlNonEmpty |= 1 << priority;
        kick();
    }

    /** Queues a MAC control frame (PFC) ahead of everything; it is never paused. */
    public void sendMacControl(ByteBuf frame) {
        if (closed) {
            frame.release();
            return;
        }
        macControl.add(frame);
        kick();
    }

    /** {@code flow} may have something to send: it joins the round robin if it was idle. */
    public void wake(EgressFlow flow) {
        if (closed) {
            return;
        }
        if (flow.place == EgressFlow.Place.IDLE) {
            addReady(flow);
        }
        kick();
    }

    /** {@code flow} is gone (destroyed, reset): it leaves whatever list it is in. */
    public void forget(EgressFlow flow) {
        switch (flow.place) {
            case READY -> removeReady(flow);
            case PACED -> paced.remove(flow);
            case PAUSED -> paused[flow.priority()].remove(flow);
            default -> {
            }
        }
        flow.place = EgressFlow.Place.IDLE;
    }

    /** {@code flow}'s next send time moved (its rate changed): a paced flow waits for the new time. */
    public void repace(EgressFlow flow) {
        if (flow.place != EgressFlow.Place.PACED) {
            return;
        }
        long at = flow.nextSendAtNanos();
        if (at == flow.pacedUntil) {
            return;
        }
        paced.remove(flow);
        flow.pacedUntil = at;
        paced.add(flow);
        kick();
    }

    private void kick() {
        if (!pulling && transmitter != null) {
            transmitter.kick();
        }
    }

    // ---- PFC (IEEE 802.1Qbb) ----

    /**
     * A PFC frame arrived: the priorities its class-enable vector names stop for its pause times
     * once the response time has passed (a zero time resumes at once).
     *
     * @param pfcOffset offset of the MAC control opcode
     */
    public void onPfc(ByteBuf frame, int pfcOffset, long now) {
        onPfc(frame, pfcOffset, now, 0xFF);
    }

    /**
     * A PFC frame arrived on a port with PFC enabled on the priorities of {@code pfcEnable} (IEEE
     * 802.1Qbb, {@code mlnx_qos --pfc}): those it names stop as {@link #onPfc(ByteBuf, int, long)}
     * says; one it names without PFC enabled is not acted on. Either is counted in
     * {@code rx_prio<N>_pause}, as mlx5's MAC counts every PFC frame it receives; the ignored ones
     * also in {@code rx_pfc_ignored} (rocelab's own: mlx5 shows them only as pause frames without
     * pause duration).
     */
    public void onPfc(ByteBuf frame, int pfcOffset, long now, int pfcEnable) {
        int cev = Pfc.classEnableVector(frame, pfcOffset);
        for (int p = 0; p < PRIORITIES; p++) {
            if ((cev & (1 << p)) == 0) {
                continue;
            }
            if ((pfcEnable & (1 << p)) == 0) {
                counters.increment(PfcCounters.rxPause(p));
                counters.increment(NicCounter.RX_PFC_IGNORED);
                continue;
            }
            long countedMicros = pauses.pausedNanos(p) / 1_000;
            counters.increment(PfcCounters.rxPause(p));
            if (pauses.receive(p, Pfc.quanta(frame, pfcOffset, p), now)) {
                counters.increment(PfcCounters.rxTransition(p));
            }
            counters.add(PfcCounters.rxPauseDuration(p), pauses.pausedNanos(p) / 1_000 - countedMicros);
        }
        kick();
    }

    /**
     * An 802.3x PAUSE arrived (IEEE 802.3 Annex 31B): the whole port, every priority and its
     * control frames alike, stops for {@code quanta} once the response time has passed, with the
     * same rules as a PFC pause ({@link PauseTimers}: a zero time resumes at once). MAC control
     * frames (our own PAUSE or PFC) still go. Counted as mlx5 counts it:
     * {@code rx_global_pause_duration} (µs paused) and {@code rx_global_pause_transition}; the
     * caller counts the frame ({@code rx_pause_ctrl_phy}).
     */
    public void onPause(int quanta, long now) {
        long countedMicros = portPause.pausedNanos(0) / 1_000;
        if (portPause.receive(0, quanta, now)) {
            counters.increment(NicCounter.RX_GLOBAL_PAUSE_TRANSITION);
        }
        counters.add(NicCounter.RX_GLOBAL_PAUSE_DURATION, portPause.pausedNanos(0) / 1_000 - countedMicros);
        kick();
    }

    /** @return whether priority {@code p} is held by a received pause (PFC or 802.3x) at {@code now} */
    public boolean isPaused(int p, long now) {
        return pauses.paused(p, now) || portPause.paused(0, now);
    }

    private int pausedMask(long now) {
        return portPause.paused(0, now) ? (1 << PRIORITIES) - 1 : pauses.pausedMask(now);
    }

    // ---- TransmitSource ----

    @Override
    public ByteBuf pull(long now) {
        int writtenInPlace = 0;
        while (!closed) {
            if (!macControl.isEmpty()) {
                return macControl.poll();
            }
            int pausedMask = pausedMask(now);
            int eligible = controlNonEmpty & ~pausedMask;
            if (eligible != 0) {
                int p = 31 - Integer.numberOfLeadingZeros(eligible);
                ByteBuf frame = control[p].poll();
                if (control[p].isEmpty()) {
                    controlNonEmpty &= ~(1 << p);
                }
                return frame;
            }
            releasePaced(now);
            releasePaused(pausedMask);
            SendStep step = nextFromFlows(now, pausedMask);
            if (step instanceof SendStep.Frame f) {
                return f.frame();
            }
            if (step != SendStep.WRITTEN_IN_PLACE || ++writtenInPlace == Transmitter.MAX_FRAMES_PER_PUMP) {
                return null;
            }
            // the packet went to the port: on to the next one, as the transmitter's next pull would
        }
        return null;
    }

    /**
     * The next packet of the QPs, round robin: a frame, {@link SendStep#WRITTEN_IN_PLACE}, or
     * {@link SendStep#NOTHING} when no ready flow may send now.
     */
    private SendStep nextFromFlows(long now, int pausedMask) {
        pulling = true;
        try {
            while (readyHead != null) {
                EgressFlow f = readyHead;
                int prio = f.priority();
                if ((pausedMask & (1 << prio)) != 0) {
                    removeReady(f);
                    f.place = EgressFlow.Place.PAUSED;
                    paused[prio].add(f);
                    pausedNonEmpty |= 1 << prio;
                    continue;
                }
                long at = f.nextSendAtNanos();
                if (at > now) {
                    removeReady(f);
                    f.place = EgressFlow.Place.PACED;
                    f.pacedUntil = at;
                    paced.add(f);
                    continue;
                }
                SendStep step = f.nextPacket(now);
                if (!step.isPacket()) {
                    if (f.place == EgressFlow.Place.READY) {
                        removeReady(f);
                    }
                    continue;
                }
                if (f.place == EgressFlow.Place.READY) {
                    readyHead = f.next; // round robin: the next flow goes first next time
                }
                return step;
            }
            return SendStep.NOTHING;
        } finally {
            pulling = false;
        }
    }

    @Override
    public boolean hasWork() {
        return !closed && (!macControl.isEmpty() || controlNonEmpty != 0 || readyHead != null || !paced.isEmpty()
            || pausedNonEmpty != 0);
    }

    @Override
    public long nextReadyNanos(long now) {
        int pausedMask = pausedMask(now);
        if (readyHead != null || !macControl.isEmpty() || (controlNonEmpty & ~pausedMask) != 0) {
            return now; // work added while the pull ran
        }
        long t = paced.isEmpty() ? NEVER : paced.peek().pacedUntil;
        int waiting = (pausedNonEmpty | controlNonEmpty) & pausedMask;
        boolean portPaused = portPause.paused(0, now);
        for (int p = 0; p < PRIORITIES; p++) {
            if ((waiting & (1 << p)) != 0) {
                // held by the port's PAUSE: nothing goes before it ends (a PFC pause still running
                // then is looked at again when the transmitter comes back)
                t = Math.min(t, portPaused ? portPause.resumesAt(0) : pauses.resumesAt(p));
            }
        }
        return t;
    }

    private void releasePaced(long now) {
        EgressFlow f;
        while ((f = paced.peek()) != null && f.pacedUntil <= now) {
            paced.poll();
            addReady(f);
        }
    }

    private void releasePaused(int pausedMask) {
        int resumed = pausedNonEmpty & ~pausedMask;
        if (resumed == 0) {
            return;
        }
        for (int p = 0; p < PRIORITIES; p++) {
            if ((resumed & (1 << p)) != 0) {
                for (EgressFlow f; (f = paused[p].poll()) != null; ) {
                    addReady(f);
                }
                pausedNonEmpty &= ~(1 << p);
            }
        }
    }

    private void addReady(EgressFlow f) {
        f.place = EgressFlow.Place.READY;
        if (readyHead == null) {
            f.next = f;
            f.prev = f;
            readyHead = f;
            return;
        }
        // at the tail: just before the head
        EgressFlow tail = readyHead.prev;
        f.prev = tail;
        f.next = readyHead;
        tail.next = f;
        readyHead.prev = f;
    }

    private void removeReady(EgressFlow f) {
        if (f.next == f) {
            readyHead = null;
        } else {
            f.prev.next = f.next;
            f.next.prev = f.prev;
            if (readyHead == f) {
                readyHead = f.next;
            }
        }
        f.next = null;
        f.prev = null;
        f.place = EgressFlow.Place.IDLE;
    }

    /** Stops: queued frames are released, nothing more is sent. */
    public void close() {
        closed = true;
        for (ByteBuf b; (b = macControl.poll()) != null; ) {
            b.release();
        }
        for (int p = 0; p < PRIORITIES; p++) {
            for (ByteBuf b; (b = control[p].poll()) != null; ) {
                b.release();
            }
            paused[p].clear();
        }
        controlNonEmpty = 0;
        pausedNonEmpty = 0;
        paced.clear();
        readyHead = null;
    }
}
