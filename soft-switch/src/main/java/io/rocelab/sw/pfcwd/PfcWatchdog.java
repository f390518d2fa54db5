package io.rocelab.sw.pfcwd;

import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.PfcWdAction;
import io.rocelab.sw.config.PfcWdConfig;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.egress.EgressPort;
import io.rocelab.sw.stats.PortCounters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * SONiC's PFC watchdog. Every poll interval it looks at each lossless queue of each watched port:
 * a queue that has frames, is paused by the peer and has transmitted nothing since the last poll
 * is stalled; stalled for the detection time, it is declared stormed and the action applies
 * (drop: ignore PFC and drop egress and ingress traffic of that queue; forward: ignore PFC and
 * send; alert: only count). A stormed queue is restored when no PFC frame has paused it for the
 * restoration time. This is what breaks a PFC deadlock (a cyclic buffer dependency), at the price
 * of the drops it causes.
 */
public final class PfcWatchdog {
    private final Scheduler scheduler;
    private final PortConfig[] ports;
    private final EgressPort[] egress;
    private final PortCounters[] counters;
    private final long pollNanos;
    private final QueueWatch[][] watches;
    private final List<QueueWatch> all = new ArrayList<>();
    private final long[][] lastPauseSeen;
    private boolean running;
    /** Queues stormed now: while none is, {@link #ingress} drops nothing and reads no watch. */
    private int stormedQueues;

    /**
     * @param scheduler the switch's scheduler
     * @param ports     port configurations
     * @param egress    egress ports
     * @param counters  port counters
     * @param pollNanos {@code PFC_WD|GLOBAL POLL_INTERVAL}
     */
    public PfcWatchdog(Scheduler scheduler, PortConfig[] ports, EgressPort[] egress, PortCounters[] counters,
                       long pollNanos) {
        this.scheduler = scheduler;
        this.ports = ports;
        this.egress = egress;
        this.counters = counters;
        this.pollNanos = pollNanos;
        this.watches = new QueueWatch[ports.length][8];
        this.lastPauseSeen = new long[ports.length][8];
        for (int p = 0; p < ports.length; p++) {
            if (ports[p].pfcWd() == null) {
                continue;
            }
            for (int prio = 0; prio < 8; prio++) {
                if (ports[p].pfcEnabled(prio)) {
                    int q = ports[p].tcToQueue()[prio];
                    if (watches[p][q] == null) {
                        watches[p][q] = new QueueWatch(p, q);
                        all.add(watches[p][q]);
                    }
                }
            }
        }
    }

    /** Starts polling, if any port is watched. */
    public void start() {
        if (!all.isEmpty() && !running) {
            running = true;
            scheduler.schedule(pollNanos, this::poll);
        }
    }

    /** @return every watched queue */
    public List<QueueWatch> watches() {
        return Collections.unmodifiableList(all);
    }

    /** @return the watch of one queue, or null */
    public QueueWatch watch(int port, int queue) {
        return watches[port][queue];
    }

    /**
     * Ingress check for action drop: frames arriving on a port whose queue for their TC is stormed
     * are dropped (SONiC drops both directions of the stormed priority).
     *
     * @return true if the frame must be dropped
     */
    public boolean ingress(int port, int queue) {
        if (stormedQueues == 0) {
            // the common case, decided without reading the port's watches
            return false;
        }
        QueueWatch w = watches[port][queue];
        if (w == null || !w.stormed) {
            return false;
        }
        if (ports[port].pfcWd().action() == PfcWdAction.DROP) {
            w.rxDrop++;
            w.rxLastDrop++;
            return true;
        }
        w.rxOk++;
        w.rxLastOk++;
        return false;
    }

    private void poll() {
        long now = scheduler.nanoTime();
        for (QueueWatch w : all) {
            EgressPort e = egress[w.port];
            PfcWdConfig cfg = ports[w.port].pfcWd();
            boolean pausedNow = e.queuePausedByPeer(w.queue, now);
            if (pausedNow) {
                lastPauseSeen[w.port][w.queue] = now;
            }
            long tx = counters[w.port].queueTxPackets[w.queue];
            if (!w.stormed) {
                boolean stalled = pausedNow && !e.queue(w.queue).isEmpty() && tx == w.lastTxPackets;
                if (!stalled) {
                    w.stallSince = -1;
                } else if (w.stallSince < 0) {
                    w.stallSince = now - pollNanos;
                }
                if (stalled && now - w.stallSince >= cfg.detectionNanos()) {
                    storm(w, cfg, now);
                }
            } else {
                updateStormCounters(w);
                if (e.lastPfcRxNanos(w.queue) <= now - cfg.restorationNanos() && !pausedNow) {
                    restore(w, now);
                }
            }
            w.lastTxPackets = counters[w.port].queueTxPackets[w.queue];
        }
        scheduler.schedule(pollNanos, this::poll);
    }

    private void storm(QueueWatch w, PfcWdConfig cfg, long now) {
        w.stormed = true;
        stormedQueues++;
        w.stormDetected++;
        w.lastDetectedAt = now;
        w.txLastOk = 0;
        w.txLastDrop = 0;
        w.rxLastOk = 0;
        w.rxLastDrop = 0;
        w.txOkAtStorm = counters[w.port].queueTxPackets[w.queue];
        w.txDropAtStorm = counters[w.port].queueDropPackets[w.queue];
        switch (cfg.action()) {
            case DROP -> egress[w.port].setWatchdogAction(w.queue, true, true);
            case FORWARD -> egress[w.port].setWatchdogAction(w.queue, true, false);
            case ALERT -> { }
        }
        updateStormCounters(w);
    }

    private void updateStormCounters(QueueWatch w) {
        long ok = counters[w.port].queueTxPackets[w.queue] - w.txOkAtStorm;
        long drop = counters[w.port].queueDropPackets[w.queue] - w.txDropAtStorm;
        w.txOk += ok - w.txLastOk;
        w.txDrop += drop - w.txLastDrop;
        w.txLastOk = ok;
        w.txLastDrop = drop;
    }

    private void restore(QueueWatch w, long now) {
        w.stormed = false;
        stormedQueues--;
        w.stormRestored++;
        w.lastRestoredAt = now;
        w.stallSince = -1;
        egress[w.port].setWatchdogAction(w.queue, false, false);
    }
}
