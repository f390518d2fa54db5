package io.rocelab.nic.cm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.mad.CmAttribute;
import io.rocelab.codec.mad.CmDreq;
import io.rocelab.codec.mad.CmIdPair;
import io.rocelab.codec.mad.CmPath;
import io.rocelab.codec.mad.CmRej;
import io.rocelab.codec.mad.CmRep;
import io.rocelab.codec.mad.CmReq;
import io.rocelab.codec.mad.CmServiceId;
import io.rocelab.codec.mad.CmaIpHeader;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.fabric.random.SplitMix64;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SoftNic;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The connection manager of one soft NIC, as Linux's ib_cm and rdma_cm behave over RoCEv2: it
 * connects RC QPs with REQ, REP and RTU and disconnects them with DREQ and DREP on QP1,
 * retransmits an unanswered message, rejects a REQ for a port nobody listens on or with a field no
 * connection could be made with ({@link RequestRule}; the listener never sees it), and moves the QPs
 * through RTR and RTS itself with the attributes both sides agreed on. The field values are
 * Linux 6.1's (rdma_cm's timeouts and retry counts, rxe's ACK delay, EUI-64 CA GUIDs, the flow label
 * from the two ports), so the MADs look like the ones rxe hosts exchange.
 *
 * <p>Each port of the NIC has its QP1 ({@link GsiAgent}), and each connection lives on one port, as
 * the kernel's rdma_cm binds an id to the device port of the netdev that owns its address
 * ({@code rdma_bind_addr}, {@code rdma_resolve_addr}): an active side's on the port of its local
 * address (the port its QP is bound to, or the one whose address it names), a passive side's on the
 * port the REQ came in on. Its REQ/REP/RTU/REJ/DREQ/DREP leave by that port's QP1 from that port's
 * address and GID, and its QP is on that port (ib_cm's {@code cm_init_qp_init_attr} takes the port
 * from the id). A bonded NIC is one interface: its one QP1 is port 1's.
 *
 * <p>Methods may be called from any thread; the work runs on the NIC's owner thread, and events are
 * delivered there.
 */
public final class ConnectionManager {
    /** rdma_cm's CMA_CM_RESPONSE_TIMEOUT: 4.096 µs × 2^20 ≈ 4.3 s for the peer to answer. */
    static final int CM_RESPONSE_TIMEOUT = 20;
    /** rdma_cm's CMA_MAX_CM_RETRIES. */
    static final int MAX_CM_RETRIES = 15;
    /** rdma_cm's CMA_IBOE_PACKET_LIFETIME on RoCE (Linux 6.1). */
    static final int PACKET_LIFETIME = 18;
    /** rxe's local_ca_ack_delay, sent as the REP's target ACK delay. */
    static final int CA_ACK_DELAY = 15;
    /** The high half of every transaction ID this CM sends (the MAD agent's number on rxe hosts). */
    static final long HI_TID = 2;
    /** RoCE has no LIDs: the CM's paths carry the permissive LID. */
    static final int PERMISSIVE_LID = 0xFFFF;

    private final SoftNic nic;
    /** QP1 of each port (index: port - 1); a bonded NIC has port 1's only. */
    private final GsiAgent[] gsi;
    private final SplitMix64 random;
    private final long caGuid;
    private final Map<Integer, CmId> byLocalId = new HashMap<>();
    private final Map<Integer, Consumer<CmEvent>> listeners = new HashMap<>();

    private ConnectionManager(SoftNic nic, long seed) {
        this.nic = nic;
        this.random = new SplitMix64(seed);
        this.caGuid = eui64(nic.mac());
        int ports = nic.bond() != null ? 1 : nic.portCount();
        this.gsi = new GsiAgent[ports];
        for (int p = 1; p <= ports; p++) {
            gsi[p - 1] = new GsiAgent(nic, p, this::onMad);
        }
        // only now, with every field set: a REQ may be handled on the NIC's thread at once
        for (GsiAgent agent : gsi) {
            agent.start();
        }
    }

    /**
     * Starts the CM of {@code nic}: creates each port's QP1 and posts its receives.
     *
     * @param seed seeds communication IDs, PSNs and ephemeral ports (same seed, same IDs)
     */
    public static ConnectionManager start(SoftNic nic, long seed) {
        Objects.requireNonNull(nic, "nic");
        return new ConnectionManager(nic, seed);
    }

    /** The CA GUID the CM sends: the port MAC as an EUI-64 (universal/local bit flipped, FF:FE inserted). */
    static long eui64(long mac) {
        long hi = (mac >>> 24) & 0xFFFFFF;
        long lo = mac & 0xFFFFFF;
        return ((hi ^ 0x020000) << 40) | 0xFFFEL << 24 | lo;
    }

    /** Accepts REQs for TCP port {@code port} (rdma_cm's RDMA_PS_TCP service ID); events go to {@code events}. */
    public void listen(int port, Consumer<CmEvent> events) {
        Objects.requireNonNull(events, "events");
        if (port <= 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port must be 1..65535: " + port);
        }
        call(() -> listeners.put(port, events));
    }

    /**
     * Connects {@code qp} (an RC QP in INIT) to whoever listens on {@code dstIpv4:dstPort}, from the
     * local port {@code srcPort} (rdma_cm's bound port, part of the flow label; 0 picks one), on the
     * port the QP is bound to and from that port's address.
     */
    public CmId connect(QueuePair qp, int dstIpv4, int dstPort, int srcPort, CmConnectParams params,
                        Consumer<CmEvent> events) {
        return connect(qp, 0, dstIpv4, dstPort, srcPort, params, events);
    }

    /**
     * Connects {@code qp} (an RC QP in INIT) from the local address {@code srcIpv4} to whoever listens
     * on {@code dstIpv4:dstPort}: as {@code rdma_bind_addr} binds an rdma_cm id to the port whose
     * netdev owns the address, the connection and its QP go on the port {@code srcIpv4} belongs to
     * (the QP is moved there in INIT, as rdma_cm's QP gets the id's port). {@code srcIpv4} 0 takes
     * the QP's port and its address.
     *
     * @throws IllegalArgumentException if no port of the NIC has {@code srcIpv4} ({@code EADDRNOTAVAIL})
     */
    public CmId connect(QueuePair qp, int srcIpv4, int dstIpv4, int dstPort, int srcPort, CmConnectParams params,
                        Consumer<CmEvent> events) {
        Objects.requireNonNull(qp, "qp");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(events, "events");
        if (dstPort <= 0 || dstPort > 0xFFFF || srcPort < 0 || srcPort > 0xFFFF) {
            throw new IllegalArgumentException("ports must be 1..65535: " + srcPort + ", " + dstPort);
        }
        return call(() -> {
            if (qp.state() != QpState.INIT) {
                throw new IllegalStateException("connect needs the QP in INIT, not " + qp.state());
            }
            int port = srcIpv4 != 0 ? portOf(srcIpv4) : nic.bond() != null ? 1 : qp.port().number();
            bindQp(qp, port);
            CmId id = newId(true, events);
            id.port = port;
            id.qp = qp;
            id.params = params;
            id.peerIpv4 = dstIpv4;
            id.localPort = srcPort != 0 ? srcPort : 32768 + (int) (random.nextLong() & 0x3FFF);
            id.remotePort = dstPort;
            id.flowLabel = flowLabel(id.localPort, dstPort);
            id.startingPsn = (int) (random.nextLong() & 0xFFFFFF);
            id.pathMtu = pathMtu(params);
            id.trafficClass = params.trafficClass();
            id.tid = tidOf(id.localCommId);
            id.request = request(id);
            id.state = CmState.REQ_SENT;
            send(id, CmAttribute.REQ, b -> id.request.encode(b, MadHeader.LENGTH));
            return id;
        });
    }

    /** Accepts the connection a {@link CmEventType#CONNECT_REQUEST} offered, on {@code qp} (RC, INIT). */
    public void accept(CmId id, QueuePair qp, CmConnectParams params) {
        Objects.requireNonNull(qp, "qp");
        Objects.requireNonNull(params, "params");
        call(() -> {
            if (id.state != CmState.REQ_RCVD) {
                throw new IllegalStateException("accept needs a connection request, not " + id);
            }
            if (qp.state() != QpState.INIT) {
                throw new IllegalStateException("accept needs the QP in INIT, not " + qp.state());
            }
            bindQp(qp, id.port);
            id.qp = qp;
            id.params = params;
            // as Linux's ib_cm: a REQ's or REP's starting PSN is what its sender expects to receive,
            // so each side sends from the PSN the other one's message named (write_bw_rdmacm.pcap:
            // the server sends from the REQ's PSN, the client from the REP's)
            id.startingPsn = (int) (random.nextLong() & 0xFFFFFF);
            CmReq r = id.request;
            // ib_cm's cm_init_qp_rtr_attr / cm_init_qp_rts_attr from the REQ and what we offer
            id.pathMtu = Math.min(mtuBytes(r.pathMtu()), pathMtu(params));
            id.trafficClass = r.primary().trafficClass();
            qp.modify(new QpAttr().state(QpState.RTR).av(pathTo(id)).pathMtu(id.pathMtu)
                    .destQpn(r.localQpn()).rqPsn(id.startingPsn).maxDestRdAtomic(params.responderResources())
                    .minRnrTimer(0));
            int timeout = params.ackTimeout() != 0 ? params.ackTimeout() : r.primary().localAckTimeout();
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(r.startingPsn()).timeout(timeout)
                    .retryCnt(r.retryCount()).rnrRetry(r.rnrRetryCount()).maxRdAtomic(params.initiatorDepth()));
            id.state = CmState.REP_SENT;
            send(id, CmAttribute.REP, b -> reply(id).encode(b, MadHeader.LENGTH));
            return null;
        });
    }

    /** Rejects a connection request ({@code rdma_reject}): REJ with reason "consumer reject". */
    public void reject(CmId id) {
        call(() -> {
            if (id.state != CmState.REQ_RCVD) {
                throw new IllegalStateException("reject needs a connection request, not " + id);
            }
            sendRej(id.port, id.peerIpv4, id.tid, id.localCommId, id.remoteCommId, CmRej.REASON_CONSUMER_REJECT);
            id.state = CmState.CLOSED;
            byLocalId.remove(id.localCommId);
            return null;
        });
    }

    /** Disconnects an established connection ({@code rdma_disconnect}): the QP goes to ERR, DREQ goes out. */
    public void disconnect(CmId id) {
        call(() -> {
            if (id.state != CmState.ESTABLISHED) {
                return null;
            }
            toError(id);
            id.tid = tidOf(id.localCommId);
            id.state = CmState.DREQ_SENT;
            send(id, CmAttribute.DREQ, b -> new CmDreq(id.localCommId, id.remoteCommId, id.remoteQpn, 0,
                    new byte[CmDreq.PRIVATE_DATA_LENGTH]).encode(b, MadHeader.LENGTH));
            return null;
        });
    }

    // ---- what goes out ----

    /** rdma_cm's cma_get_roce_udp_flow_label for IPv4: the two ports hashed into 20 bits. */
    static int flowLabel(int srcPort, int dstPort) {
        return (srcPort * 31 + dstPort) & 0xFFFFF;
    }

    /** The transaction ID of an exchange a side starts: its local ID as ib_cm keeps it (byte-swapped). */
    static long tidOf(int localCommId) {
        return HI_TID << 32 | (Integer.reverseBytes(localCommId) & 0xFFFFFFFFL);
    }

    private CmReq request(CmId id) {
        // rdma_cm's private data: its IP header, then the consumer's (none) as zeros
        byte[] pd = new byte[CmReq.PRIVATE_DATA_LENGTH];
        int local = nic.port(id.port).ipv4();
        CmaIpHeader.ipv4(inet(local), id.localPort, inet(id.peerIpv4)).encode(Unpooled.wrappedBuffer(pd), 0);
        CmPath primary = new CmPath(PERMISSIVE_LID, PERMISSIVE_LID, Gid.ipv4Mapped(local).toBytes(),
                Gid.ipv4Mapped(id.peerIpv4).toBytes(), id.flowLabel, 0, 0, id.trafficClass, 64, 0, 0, 0,
                PACKET_LIFETIME + 1, 0);
        CmConnectParams p = id.params;
        return new CmReq(id.localCommId, 0, CmServiceId.ip(CmServiceId.PROTOCOL_TCP, id.remotePort), caGuid, 0, 0,
                id.qp.qpn(), p.responderResources(), 0, p.initiatorDepth(), 0, CM_RESPONSE_TIMEOUT, 0, 0,
                id.startingPsn, CM_RESPONSE_TIMEOUT, p.retryCount(), 0xFFFF, mtuEnum(id.pathMtu), 0,
                p.rnrRetryCount(), MAX_CM_RETRIES, 0, 0, primary, CmPath.NONE, pd);
    }

    private CmRep reply(CmId id) {
        CmConnectParams p = id.params;
        return new CmRep(id.localCommId, id.remoteCommId, 0, id.qp.qpn(), 0, 0, 0, id.startingPsn, 0,
                p.responderResources(), p.initiatorDepth(), CA_ACK_DELAY, 0, 0, p.rnrRetryCount(), 0, 0, caGuid,
                new byte[CmRep.PRIVATE_DATA_LENGTH]);
    }

    private void send(CmId id, CmAttribute attribute, Consumer<ByteBuf> body) {
        Consumer<ByteBuf> mad = b -> {
            MadHeader.writeCm(b, 0, id.tid, attribute);
            body.accept(b);
        };
        gsi(id.port).send(id.peerIpv4, mad);
        if (attribute == CmAttribute.REQ || attribute == CmAttribute.REP || attribute == CmAttribute.DREQ) {
            id.retriesLeft = MAX_CM_RETRIES;
            arm(id, mad);
        }
    }

    /**
     * Resends an unanswered REQ, REP or DREQ after ib_cm's timeout (the peer's response time plus
     * twice the packet lifetime), at most {@link #MAX_CM_RETRIES} times.
     */
    private void arm(CmId id, Consumer<ByteBuf> mad) {
        long timeout = timeoutNanos(CM_RESPONSE_TIMEOUT) + 2 * timeoutNanos(PACKET_LIFETIME);
        CmState waitingIn = id.state;
        id.timer = nic.agentScheduler().schedule(timeout, () -> {
            if (id.state != waitingIn) {
                return;
            }
            if (id.retriesLeft-- > 0) {
                gsi(id.port).send(id.peerIpv4, mad);
                arm(id, mad);
                return;
            }
            giveUp(id);
        });
    }

    private void giveUp(CmId id) {
        switch (id.state) {
            case REQ_SENT -> {
                id.state = CmState.CLOSED;
                byLocalId.remove(id.localCommId);
                id.events.accept(CmEvent.of(CmEventType.UNREACHABLE, id));
            }
            case REP_SENT -> {
                id.state = CmState.CLOSED;
                toError(id);
                byLocalId.remove(id.localCommId);
                id.events.accept(CmEvent.of(CmEventType.CONNECT_ERROR, id));
            }
            case DREQ_SENT -> closed(id);
            default -> {
            }
        }
    }

    private void stopTimer(CmId id) {
        if (id.timer != null) {
            id.timer.cancel();
            id.timer = null;
        }
    }

    private void sendRej(int port, int ipv4, long tid, int localCommId, int remoteCommId, int reason) {
        gsi(port).send(ipv4, b -> {
            MadHeader.writeCm(b, 0, tid, CmAttribute.REJ);
            new CmRej(localCommId, remoteCommId, 0, 0, 0, 0, reason, new byte[CmRej.ARI_LENGTH],
                    new byte[CmRej.PRIVATE_DATA_LENGTH]).encode(b, MadHeader.LENGTH);
        });
    }

    // ---- what comes in ----

    private void onMad(ByteBuf mad, int sender, int port) {
        if (!MadHeader.isCm(mad, 0, mad.readableBytes()) || MadHeader.method(mad, 0) != MadHeader.METHOD_SEND) {
            return;
        }
        CmAttribute a = CmAttribute.of(MadHeader.attributeId(mad, 0));
        if (a == null) {
            return;
        }
        long tid = MadHeader.transactionId(mad, 0);
        int d = MadHeader.LENGTH;
        switch (a) {
            case REQ -> onReq(CmReq.decode(mad, d), tid, sender, port, mad);
            case REP -> onRep(CmRep.decode(mad, d));
            case RTU -> onRtu(CmIdPair.decode(mad, d));
            case REJ -> onRej(CmRej.decode(mad, d));
            case DREQ -> onDreq(CmDreq.decode(mad, d), tid, sender, port);
            case DREP -> onDrep(CmIdPair.decode(mad, d));
            default -> {
            }
        }
    }

    private void onReq(CmReq r, long tid, int sender, int port, ByteBuf mad) {
        for (CmId id : byLocalId.values()) {
            if (!id.active && id.remoteCommId == r.localCommId() && id.peerIpv4 == sender) {
                // a duplicate REQ: our REP was lost or late (IBA 12.9.6.1); answer it again
                if (id.state == CmState.REP_SENT) {
                    gsi(id.port).send(sender, b -> {
                        MadHeader.writeCm(b, 0, id.tid, CmAttribute.REP);
                        reply(id).encode(b, MadHeader.LENGTH);
                    });
                }
                return;
            }
        }
        Consumer<CmEvent> listener = CmServiceId.isIp(r.serviceId())
                && CmServiceId.protocol(r.serviceId()) == CmServiceId.PROTOCOL_TCP
                ? listeners.get(CmServiceId.port(r.serviceId())) : null;
        if (listener == null) {
            // nobody listens: ib_cm answers IB_CM_REJ_INVALID_SERVICE_ID
            sendRej(port, sender, tid, (int) (random.nextLong() | 1), r.localCommId(), CmRej.REASON_INVALID_SERVICE_ID);
            return;
        }
        int reason = RequestRule.rejectReason(r);
        if (reason != 0) {
            // a REQ no QP could be connected with (a path MTU of enum 0): REJ, and the listener never sees it
            sendRej(port, sender, tid, (int) (random.nextLong() | 1), r.localCommId(), reason);
            return;
        }
        CmId id = newId(false, listener);
        // the connection lives on the port the REQ came in on: its REP leaves there, its QP goes there
        id.port = port;
        id.remoteCommId = r.localCommId();
        id.tid = tid;
        id.peerIpv4 = sender;
        id.request = r;
        id.remoteQpn = r.localQpn();
        id.flowLabel = r.primary().flowLabel();
        CmaIpHeader ip = CmaIpHeader.decode(mad, MadHeader.LENGTH + CmReq.PRIVATE_DATA);
        id.state = CmState.REQ_RCVD;
        listener.accept(new CmEvent(CmEventType.CONNECT_REQUEST, id, r, ip, 0));
    }

    private void onRep(CmRep r) {
        CmId id = byLocalId.get(r.remoteCommId());
        if (id == null || !id.active) {
            return;
        }
        if (id.state == CmState.ESTABLISHED) {
            sendRtu(id); // our RTU was lost: the peer repeats its REP
            return;
        }
        if (id.state != CmState.REQ_SENT) {
            return;
        }
        stopTimer(id);
        id.remoteCommId = r.localCommId();
        id.remoteQpn = r.localQpn();
        CmConnectParams p = id.params;
        QueuePair qp = id.qp;
        qp.modify(new QpAttr().state(QpState.RTR).av(pathTo(id)).pathMtu(id.pathMtu).destQpn(r.localQpn())
                .rqPsn(id.startingPsn).maxDestRdAtomic(p.responderResources()).minRnrTimer(0));
        int timeout = p.ackTimeout() != 0 ? p.ackTimeout() : ackTimeout(r.targetAckDelay());
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(r.startingPsn()).timeout(timeout)
                .retryCnt(p.retryCount()).rnrRetry(r.rnrRetryCount()).maxRdAtomic(p.initiatorDepth()));
        sendRtu(id);
        id.state = CmState.ESTABLISHED;
        id.events.accept(CmEvent.of(CmEventType.ESTABLISHED, id));
    }

    private void sendRtu(CmId id) {
        gsi(id.port).send(id.peerIpv4, b -> {
            MadHeader.writeCm(b, 0, id.tid, CmAttribute.RTU);
            new CmIdPair(id.localCommId, id.remoteCommId, new byte[CmIdPair.PRIVATE_DATA_LENGTH])
                    .encode(b, MadHeader.LENGTH);
        });
    }

    private void onRtu(CmIdPair r) {
        CmId id = byLocalId.get(r.remoteCommId());
        if (id == null || id.state != CmState.REP_SENT || id.remoteCommId != r.localCommId()) {
            return;
        }
        stopTimer(id);
        id.state = CmState.ESTABLISHED;
        id.events.accept(CmEvent.of(CmEventType.ESTABLISHED, id));
    }

    private void onRej(CmRej r) {
        CmId id = byLocalId.get(r.remoteCommId());
        if (id == null || id.state != CmState.REQ_SENT) {
            return;
        }
        stopTimer(id);
        id.state = CmState.REJECTED;
        byLocalId.remove(id.localCommId);
        id.events.accept(new CmEvent(CmEventType.REJECTED, id, null, null, r.reason()));
    }

    private void onDreq(CmDreq r, long tid, int sender, int port) {
        CmId id = byLocalId.get(r.remoteCommId());
        if (id != null && (id.state == CmState.ESTABLISHED || id.state == CmState.DREQ_SENT)) {
            toError(id);
            closed(id);
        }
        // answered whether or not the connection is still known (ib_cm's cm_issue_drep), on the DREQ's port
        gsi(port).send(sender, b -> {
            MadHeader.writeCm(b, 0, tid, CmAttribute.DREP);
            new CmIdPair(r.remoteCommId(), r.localCommId(), new byte[CmIdPair.PRIVATE_DATA_LENGTH])
                    .encode(b, MadHeader.LENGTH);
        });
    }

    private void onDrep(CmIdPair r) {
        CmId id = byLocalId.get(r.remoteCommId());
        if (id != null && id.state == CmState.DREQ_SENT) {
            closed(id);
        }
    }

    private void closed(CmId id) {
        stopTimer(id);
        id.state = CmState.CLOSED;
        byLocalId.remove(id.localCommId);
        id.events.accept(CmEvent.of(CmEventType.DISCONNECTED, id));
    }

    private void toError(CmId id) {
        if (id.qp != null && id.qp.state() != QpState.ERR && id.qp.state() != QpState.RESET) {
            id.qp.modify(new QpAttr().state(QpState.ERR));
        }
    }

    // ---- helpers ----

    /** The QP1 of port {@code port}. */
    private GsiAgent gsi(int port) {
        return gsi[port - 1];
    }

    /**
     * The port whose address {@code ipv4} is ({@code rdma_bind_addr}'s device port): a bonded NIC's
     * is port 1, the bond.
     */
    private int portOf(int ipv4) {
        for (int p = 1; p <= gsi.length; p++) {
            if (nic.port(p).ipv4() == ipv4) {
                return p;
            }
        }
        throw new IllegalArgumentException("no port of " + nic.name() + " has the address "
                + io.rocelab.codec.header.Ipv4.toString(ipv4) + " (EADDRNOTAVAIL)");
    }

    /**
     * Binds {@code qp} (in INIT) to the connection's port, as rdma_cm's QP takes its id's port
     * (INIT to INIT with the port, IBA 11.2.4.2); a bonded NIC's QPs stay on port 1.
     */
    private void bindQp(QueuePair qp, int port) {
        if (nic.bond() == null && qp.port().number() != port) {
            qp.modify(new QpAttr().state(QpState.INIT).port(port));
        }
    }

    private CmId newId(boolean active, Consumer<CmEvent> events) {
        int lcid;
        do {
            lcid = (int) random.nextLong();
        } while (lcid == 0 || byLocalId.containsKey(lcid));
        CmId id = new CmId(active, lcid, events);
        byLocalId.put(lcid, id);
        return id;
    }

    /** The QP's path to the peer, with the connection's flow label (so both sides use one UDP port). */
    private AddressHandle pathTo(CmId id) {
        // rdma_cm's default RoCE mode is RoCEv2 (cma_roce_mode): the IPv4-mapped RoCEv2 GID
        int sgid = nic.port(1).ipv4GidIndex(io.rocelab.nic.net.GidType.ROCE_V2);
        return AddressHandle.ipv4(id.peerIpv4, sgid).withFlowLabel(id.flowLabel).withTrafficClass(id.trafficClass);
    }

    /** The path MTU a side offers: the port's active MTU, or less when the parameters ask for less. */
    private int pathMtu(CmConnectParams params) {
        return params.pathMtu() == 0 ? nic.activeMtu() : Math.min(params.pathMtu(), nic.activeMtu());
    }

    /** ib_cm's cm_ack_timeout: the path's ACK timeout raised to cover the peer's ACK delay. */
    private static int ackTimeout(int targetAckDelay) {
        int t = PACKET_LIFETIME + 1;
        if (targetAckDelay >= t - 1) {
            t = targetAckDelay + 1;
        }
        return Math.min(t, 31);
    }

    static long timeoutNanos(int exponent) {
        return 4096L << exponent;
    }

    static int mtuEnum(int bytes) {
        return Integer.numberOfTrailingZeros(bytes) - 7;
    }

    static int mtuBytes(int mtuEnum) {
        return 128 << mtuEnum;
    }

    private static InetAddress inet(int ipv4) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (ipv4 >>> 24), (byte) (ipv4 >>> 16),
                (byte) (ipv4 >>> 8), (byte) ipv4});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private <T> T call(java.util.function.Supplier<T> action) {
        return nic.call(action);
    }
}
