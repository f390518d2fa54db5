package io.rocelab.nic.cm;

import io.rocelab.codec.mad.CmReq;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.nic.QueuePair;
import java.util.function.Consumer;

/**
 * One end of a connection ({@code struct rdma_cm_id} with its ib_cm half): the communication IDs,
 * the transaction ID of its exchange, the QP it connects and the peer's QPN and PSN. Touched on the
 * NIC's owner thread; {@link #state()} may be read from any thread.
 */
public final class CmId {
    final boolean active;
    final Consumer<CmEvent> events;
    final int localCommId;
    int remoteCommId;
    long tid;
    int peerIpv4;
    /** The NIC port the connection lives on: its QP1, address and GID, and its QP's port. */
    int port = 1;
    int localPort;
    int remotePort;
    int flowLabel;
    QueuePair qp;
    int remoteQpn;
    int startingPsn;
    /** The path MTU in bytes the connection's QP uses. */
    int pathMtu;
    /** The IP traffic class of the connection's path. */
    int trafficClass;
    CmReq request;
    CmConnectParams params;
    int retriesLeft;
    Cancellable timer;
    volatile CmState state;

    CmId(boolean active, int localCommId, Consumer<CmEvent> events) {
        this.active = active;
        this.localCommId = localCommId;
        this.events = events;
    }

    public CmState state() {
        return state;
    }

    /** The QP this connection connects, once connect or accept named it. */
    public QueuePair qp() {
        return qp;
    }

    /** The peer's QPN, once its REQ or REP told it. */
    public int remoteQpn() {
        return remoteQpn;
    }

    public int localCommId() {
        return localCommId;
    }

    public int remoteCommId() {
        return remoteCommId;
    }

    /**
     * The NIC port the connection lives on ({@code rdma_cm_id.port_num}): the port of the local
     * address for an active side, the port the REQ arrived on for a passive one.
     */
    public int port() {
        return port;
    }

    /** The peer's IPv4 address. */
    public int peerIpv4() {
        return peerIpv4;
    }

    /** The flow label of the connection's path (rdma_cm's, from the two ports). */
    public int flowLabel() {
        return flowLabel;
    }

    @Override
    public String toString() {
        return String.format("CmId[lcid 0x%08x rcid 0x%08x %s %s]", localCommId, remoteCommId,
                active ? "active" : "passive", state);
    }
}
