package io.rocelab.perftest.nic;

import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.cm.CmConnectParams;
import io.rocelab.nic.cm.CmEvent;
import io.rocelab.nic.cm.CmEventType;
import io.rocelab.nic.cm.CmId;
import io.rocelab.nic.cm.CmState;
import io.rocelab.nic.cm.ConnectionManager;
import io.rocelab.perftest.cli.Peer;
import io.rocelab.perftest.oob.OobChannel;
import io.rocelab.perftest.oob.OobProtocolException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * perftest's {@code -R} on the soft NIC, as perftest 4.5 drives librdmacm: first an RC QP for the
 * exchange itself (the client's {@code rdma_client_connect}, the server's
 * {@code rdma_server_connect}: listen on the perftest port, accept the first request), later one
 * connection per data QP to the same port ({@code create_rdma_cm_connection}), and at the end the
 * disconnects perftest's teardown makes: the client disconnects the data QPs, the server the
 * exchange's QP.
 *
 * <p>On a dual-port NIC the client binds to the address of its {@code -i} port (where the kernel's
 * rdma_cm would take the port of the netdev its route leaves by), so its connections and QPs live
 * on that port; the server listens on every port, and each connection lives on the port its
 * request came in on (its QP moved there), as an rdma_cm id bound to the wildcard address.
 */
final class RdmaCm {
    /** perftest's {@code rnr_retry_count} on the exchange's QP, and its default {@code --retry_count}. */
    static final int RETRY = 7;
    /** How often, and how far apart, a rejected data connection is tried again (the server may not listen yet). */
    private static final int CONNECT_ATTEMPTS = 50;
    private static final long RETRY_DELAY_MS = 100;
    /** How long the teardown waits for the peer's side of a disconnect. */
    private static final long DISCONNECT_WAIT_NANOS = TimeUnit.SECONDS.toNanos(3);

    private final SoftNic nic;
    /** The port of the exchange's QP until the CM binds it: the tool's {@code -i}. */
    private final int ibPort;
    private final ConnectionManager cm;
    private final Peer peer;
    private final Duration timeout;
    private final BlockingQueue<CmEvent> requests = new LinkedBlockingQueue<>();
    private final int peerIpv4;
    private CmId comm;
    private final List<CmId> data = new ArrayList<>();
    private boolean tornDown;

    private RdmaCm(SoftNic nic, long seed, Peer peer, Duration timeout, int ibPort) throws IOException {
        this.nic = nic;
        this.ibPort = ibPort;
        this.peer = peer;
        this.timeout = timeout;
        this.peerIpv4 = peer.isClient() ? ipv4(peer.host()) : 0;
        this.cm = ConnectionManager.start(nic, seed);
        if (peer.isServer()) {
            // one listener for the exchange's connection and the data connections after it; perftest
            // listens twice on the same port, and a request between the two is rejected and retried
            cm.listen(peer.port(), e -> {
                if (e.type() == CmEventType.CONNECT_REQUEST) {
                    requests.add(e);
                }
            });
        }
    }

    /** Starts the CM; {@code ibPort} is the port the client binds to (its {@code -i}). */
    static RdmaCm start(SoftNic nic, long seed, Peer peer, Duration timeout, int ibPort) throws IOException {
        return new RdmaCm(nic, seed, peer, timeout, ibPort);
    }

    private static int ipv4(String host) throws IOException {
        InetAddress a;
        try {
            a = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IOException("Problem in resolving basic address and port: unknown host " + host);
        }
        if (!(a instanceof Inet4Address)) {
            throw new IOException("rdma_cm: " + host + " is not an IPv4 address; rocelab's rdma_cm speaks RoCEv2"
                    + " over IPv4");
        }
        byte[] b = a.getAddress();
        return (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | b[3] & 0xff;
    }

    /**
     * Connects the exchange's QP (RC, one send and one receive, the receive posted before the
     * connection is made) and returns the link over it.
     */
    RdmaCmLink connectExchange() throws IOException, InterruptedException {
        ProtectionDomain pd = nic.allocPd();
        byte[] buffer = new byte[RdmaCmLink.bufferSize()];
        MemoryRegion mr = pd.registerMr(buffer, 0x5000_0000L, AccessFlags.LOCAL_WRITE);
        CompletionQueue sendCq = nic.createCq(16);
        CompletionQueue recvCq = nic.createCq(16);
        QueuePair qp = nic.createQp(pd, QpType.RC, sendCq, recvCq, new QpCaps(4, 4, 1, 1, 0, false));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(ibPort).accessFlags(AccessFlags.LOCAL_WRITE));
        RdmaCmLink.postReceive(qp, mr);
        CmConnectParams params = new CmConnectParams(0, 0, RETRY, RETRY);
        if (peer.isClient()) {
            comm = connect(qp, params, 1);
        } else {
            comm = accept(qp, params, () -> "the client's connection");
        }
        return new RdmaCmLink(qp, sendCq, recvCq, mr, buffer,
                peer.isClient() ? OobChannel.Role.CLIENT : OobChannel.Role.SERVER, timeout);
    }

    /** Connects the data QPs, in order: the client one connection each, the server accepting as many. */
    void connectData(QueuePair[] qps, int outReads, boolean readsOrAtomics, int mtu, int trafficClass)
            throws IOException, InterruptedException {
        int resources = readsOrAtomics ? outReads : 0;
        // the path MTU both sides agreed on in the exchange (perftest's check_mtu), so that a port
        // with a larger MTU than its peer's does not offer a path the peer cannot carry; the client's
        // traffic class (-T, rdma_set_option's TOS) goes into the REQ, and the server takes it from there
        CmConnectParams params = new CmConnectParams(resources, resources, RETRY, RETRY, mtu, trafficClass);
        for (int i = 0; i < qps.length; i++) {
            int n = i;
            data.add(peer.isClient() ? connect(qps[i], params, CONNECT_ATTEMPTS)
                    : accept(qps[i], params, () -> "the connection of data QP " + n));
        }
    }

    private CmId connect(QueuePair qp, CmConnectParams params, int attempts) throws IOException, InterruptedException {
        String where = io.rocelab.codec.header.Ipv4.toString(peerIpv4) + ":" + peer.port();
        for (int attempt = 1; ; attempt++) {
            CmId id = cm.connect(qp, peerIpv4, peer.port(), 0, params, e -> { });
            CmState s = awaitLeaving(id, CmState.REQ_SENT);
            if (s == CmState.ESTABLISHED) {
                return id;
            }
            if (s == CmState.REJECTED && attempt < attempts) {
                Thread.sleep(RETRY_DELAY_MS);
                continue;
            }
            if (s == CmState.REJECTED) {
                throw new OobProtocolException("Unable to init the socket connection: rdma_cm's connect to " + where
                        + " got RDMA_CM_EVENT_REJECTED (nothing accepts rdma_cm connections there)");
            }
            throw new OobProtocolException("Unable to init the socket connection: rdma_cm's connect to " + where
                    + " got RDMA_CM_EVENT_UNREACHABLE (no answer to the connect request)");
        }
    }

    private CmState awaitLeaving(CmId id, CmState from) throws InterruptedException {
        sleepUntil(() -> id.state() != from, timeout.isZero() ? Long.MAX_VALUE : timeout.toNanos());
        return id.state();
    }

    /** Checks {@code done} every millisecond, for at most {@code nanos}: the CM moves its ids on the NIC's thread. */
    private static void sleepUntil(BooleanSupplier done, long nanos) throws InterruptedException {
        long start = System.nanoTime();
        while (!done.getAsBoolean() && System.nanoTime() - start < nanos) {
            Thread.sleep(1);
        }
    }

    private CmId accept(QueuePair qp, CmConnectParams params, Supplier<String> what)
            throws IOException, InterruptedException {
        // the server waits for its client without limit, as perftest does; later requests come within the timeout
        CmEvent e = comm == null || timeout.isZero() ? requests.take()
                : requests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
            throw new OobProtocolException("timed out waiting for " + what.get() + " (rdma_cm connect request)");
        }
        cm.accept(e.id(), qp, params);
        if (qp.type() == QpType.RC) {
            // perftest's rdma_cm_connection_request_handler: the RNR timer it also sets without rdma_cm
            qp.modify(new QpAttr().minRnrTimer(NicEngine.MIN_RNR_TIMER));
        }
        return e.id();
    }

    /**
     * perftest's teardown: the client disconnects the data connections and waits for them to close;
     * the server waits for the client to do so (answering its DREQs), then disconnects the
     * exchange's connection. Either side disconnects what the other leaves established after a
     * few seconds, so neither waits long for a peer that has gone.
     */
    void teardown() throws InterruptedException {
        if (tornDown) {
            return;
        }
        tornDown = true;
        if (peer.isClient()) {
            data.forEach(cm::disconnect);
            awaitClosed(data);
            awaitClosed(comm == null ? List.of() : List.of(comm));
        } else {
            awaitClosed(data);
            data.forEach(cm::disconnect);
            awaitClosed(data);
            if (comm != null) {
                cm.disconnect(comm);
                awaitClosed(List.of(comm));
            }
        }
        List<CmId> left = new ArrayList<>(data);
        if (comm != null) {
            left.add(comm);
        }
        left.forEach(cm::disconnect);
    }

    private static void awaitClosed(List<CmId> ids) throws InterruptedException {
        sleepUntil(() -> ids.stream().noneMatch(RdmaCm::open), DISCONNECT_WAIT_NANOS);
    }

    private static boolean open(CmId id) {
        CmState s = id.state();
        return s == CmState.ESTABLISHED || s == CmState.DREQ_SENT || s == CmState.REP_SENT;
    }

}
