package io.rocelab.sw.pfcwd;

/** The watchdog's state and SONiC counters for one lossless queue of one port. */
public final class QueueWatch {
    final int port;
    final int queue;
    boolean stormed;
    long stallSince = -1;
    long lastTxPackets;
    long stormStartedAt;
    long txOkAtStorm;
    long txDropAtStorm;
    /** STORM DETECTED */
    public long stormDetected;
    /** STORM RESTORED */
    public long stormRestored;
    /** TX OK / TX DROP / RX OK / RX DROP: packets while stormed, summed over storms */
    public long txOk;
    public long txDrop;
    public long rxOk;
    public long rxDrop;
    /** TX LAST OK/DROP, RX LAST OK/DROP: the same for the latest storm */
    public long txLastOk;
    public long txLastDrop;
    public long rxLastOk;
    public long rxLastDrop;
    /** Virtual or real time at which the latest storm was detected, and restored. */
    public long lastDetectedAt = -1;
    public long lastRestoredAt = -1;

    QueueWatch(int port, int queue) {
        this.port = port;
        this.queue = queue;
    }

    /** @return a copy of the state and counters; call on the owner thread */
    public QueueWatch copy() {
        QueueWatch w = new QueueWatch(port, queue);
        w.stormed = stormed;
        w.stormDetected = stormDetected;
        w.stormRestored = stormRestored;
        w.txOk = txOk;
        w.txDrop = txDrop;
        w.rxOk = rxOk;
        w.rxDrop = rxDrop;
        w.txLastOk = txLastOk;
        w.txLastDrop = txLastDrop;
        w.rxLastOk = rxLastOk;
        w.rxLastDrop = rxLastDrop;
        w.lastDetectedAt = lastDetectedAt;
        w.lastRestoredAt = lastRestoredAt;
        return w;
    }

    /**
     * The storm counters since a baseline (the state and the latest storm's counters as they are
     * now), as {@code show pfcwd stats} prints them after {@code sonic-clear counters}.
     *
     * @param base an earlier copy of the same queue's watch
     */
    public QueueWatch minus(QueueWatch base) {
        QueueWatch w = copy();
        w.stormDetected -= base.stormDetected;
        w.stormRestored -= base.stormRestored;
        w.txOk -= base.txOk;
        w.txDrop -= base.txDrop;
        w.rxOk -= base.rxOk;
        w.rxDrop -= base.rxDrop;
        return w;
    }

    public int port() {
        return port;
    }

    public int queue() {
        return queue;
    }

    /** @return true while the queue is declared stormed */
    public boolean stormed() {
        return stormed;
    }
}
