package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.header.Deth;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.codec.mad.CmAttribute;
import io.rocelab.codec.mad.CmRej;
import io.rocelab.codec.mad.CmReq;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.codec.testkit.RxeCaptures;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.cm.CmConnectParams;
import io.rocelab.nic.cm.CmEvent;
import io.rocelab.nic.cm.CmEventType;
import io.rocelab.nic.cm.CmId;
import io.rocelab.nic.cm.CmState;
import io.rocelab.nic.cm.ConnectionManager;
import io.rocelab.nic.stats.NicCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connection manager between two soft NICs in virtual time: the REQ/REP/RTU handshake moves
 * both QPs to RTS and traffic flows; the MADs are the ones rxe hosts exchange (checked against a
 * REQ captured from {@code ib_write_bw -R}); DREQ/DREP, REJ for an unknown port, retransmission of
 * a lost REQ, and giving up.
 */
class ConnectionManagerTest {
    private static final int IP_A = Ipv4.parse("10.77.0.11");
    private static final int IP_B = Ipv4.parse("10.77.0.10");
    /** perftest -R's conn_param: no RDMA READ resources for a write test, 7 retries, RNR retry 7. */
    private static final CmConnectParams PARAMS = new CmConnectParams(0, 0, 7, 7);

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final List<WireTap.Seen> wire = new ArrayList<>();
    private final SoftNic a;
    private final SoftNic b;
    private final QueuePair qpA;
    private final QueuePair qpB;
    private final CompletionQueue cqA;
    private final ProtectionDomain pdA;
    private final ProtectionDomain pdB;
    private final List<CmEvent> eventsA = new ArrayList<>();
    private final List<CmEvent> eventsB = new ArrayList<>();

    ConnectionManagerTest() {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(10).propagationDelayNanos(500).seed(3)
                .build(sched);
        // the addresses and MTU of the two rxe VMs of vectors/rxe
        a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(IP_A).activeMtu(1024).scheduler(sched)
                .port(new WireTap(link.portA(), "a", wire)).build();
        b = SoftNic.builder().name("b").mac("52:54:00:77:00:00").ipv4(IP_B).activeMtu(1024).scheduler(sched)
                .port(new WireTap(link.portB(), "b", wire)).build();
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(64);
        CompletionQueue cqB = b.createCq(64);
        qpA = a.createQp(pdA, QpType.RC, cqA, cqA, QpCaps.defaults());
        qpB = b.createQp(pdB, QpType.RC, cqB, cqB, QpCaps.defaults());
        for (QueuePair qp : List.of(qpA, qpB)) {
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        }
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        sched.runFor(1_000_000_000L);
    }

    private boolean runUntil(BooleanSupplier done, long maxNanos) {
        long end = sched.nanoTime() + maxNanos;
        while (!done.getAsBoolean()) {
            if (sched.isIdle() || sched.nextEventTime() > end) {
                return done.getAsBoolean();
            }
            sched.runNext();
        }
        return true;
    }

    /** B listens on 18515 and accepts every request on qpB. */
    private ConnectionManager listeningB() {
        ConnectionManager cmB = ConnectionManager.start(b, 2);
        cmB.listen(18515, e -> {
            eventsB.add(e);
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                cmB.accept(e.id(), qpB, PARAMS);
            }
        });
        return cmB;
    }

    private List<WireTap.Seen> mads(String from) {
        return wire.stream().filter(s -> s.from().equals(from) && s.destQp() == SoftNic.GSI_QPN).toList();
    }

    private static ByteBuf mad(WireTap.Seen s) {
        ByteBuf f = Unpooled.wrappedBuffer(s.bytes());
        ParsedFrame p = new ParsedFrame();
        p.parse(f);
        return f.slice(p.payloadOffset(), p.payloadLength());
    }

    private static int attribute(WireTap.Seen s) {
        return MadHeader.attributeId(mad(s), 0);
    }

    @Test
    void handshakeConnectsBothQpsAndTrafficFlows() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        CmId id = cmA.connect(qpA, IP_B, 18515, 42805, PARAMS, eventsA::add);
        assertTrue(runUntil(() -> eventsB.size() == 2 && eventsA.size() == 1, 1_000_000_000L));
        assertEquals(CmEventType.ESTABLISHED, eventsA.get(0).type());
        CmEvent request = eventsB.get(0);
        assertEquals(CmEventType.CONNECT_REQUEST, request.type());
        assertEquals("/10.77.0.11", request.ipHeader().sourceAddress().toString());
        assertEquals(42805, request.ipHeader().sourcePort());
        assertEquals(CmEventType.ESTABLISHED, eventsB.get(1).type());
        assertEquals(CmState.ESTABLISHED, id.state());

        // both QPs connected to each other, PSNs as the REQ and REP said
        assertEquals(QpState.RTS, qpA.state());
        assertEquals(QpState.RTS, qpB.state());
        assertEquals(qpB.qpn(), qpA.destQpn());
        assertEquals(qpA.qpn(), qpB.destQpn());
        // Linux's ib_cm: the REQ's starting PSN is where the passive side sends from and the active
        // side expects to receive; the REP's the other way round (vectors/rxe/write_bw_rdmacm.pcap)
        assertEquals(request.request().startingPsn(), qpA.responder().expectedPsn());
        assertEquals(qpB.responder().expectedPsn(), qpA.requester().nextPsn());
        assertEquals(request.request().startingPsn(), qpB.requester().nextPsn());

        // the MADs: UD SENDs from QP1 to QP1 with the GSI Q_Key, AckReq set, rxe's QP1 port, PSNs from 0
        assertEquals(List.of(0x10, 0x14), mads("a").stream().map(ConnectionManagerTest::attribute).toList());
        assertEquals(List.of(0x13), mads("b").stream().map(ConnectionManagerTest::attribute).toList());
        for (WireTap.Seen s : wire.stream().filter(s -> s.destQp() == SoftNic.GSI_QPN).toList()) {
            assertEquals(Opcode.UD_SEND_ONLY, s.opcode());
            assertTrue(s.ackReq(), s.toString());
            assertEquals(0xD872, s.udpSrcPort());
            assertEquals(MadHeader.MAD_SIZE, s.payloadLength());
            ParsedFrame p = new ParsedFrame();
            ByteBuf f = Unpooled.wrappedBuffer(s.bytes());
            p.parse(f);
            assertEquals(MadHeader.GSI_QKEY, Deth.qkey(f, p.offsetOf(ExtHeader.DETH)));
            assertEquals(SoftNic.GSI_QPN, Deth.srcQp(f, p.offsetOf(ExtHeader.DETH)));
        }
        assertEquals(List.of(0, 1), mads("a").stream().map(WireTap.Seen::psn).toList());
        // REP and RTU answer in the REQ's transaction
        long tid = MadHeader.transactionId(mad(mads("a").get(0)), 0);
        assertEquals(tid, MadHeader.transactionId(mad(mads("b").get(0)), 0));
        assertEquals(tid, MadHeader.transactionId(mad(mads("a").get(1)), 0));

        // traffic: a WRITE, with the UDP port rdma_cm's flow label gives, (42805 * 31 + 18515) & 0xFFFFF
        byte[] src = "connected by the CM".getBytes();
        byte[] dst = new byte[src.length];
        MemoryRegion mrA = pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
        MemoryRegion mrB = pdB.registerMr(dst, 0x2000, AccessFlags.ALL);
        qpA.postSend(SendWr.write(9, Sge.of(mrA), 0x2000, mrB.rkey()));
        assertTrue(runUntil(() -> cqA.size() == 1, 1_000_000_000L));
        assertTrue(cqA.poll().isSuccess());
        assertArrayEquals(src, dst);
        List<WireTap.Seen> data = wire.stream().filter(s -> s.destQp() != SoftNic.GSI_QPN).toList();
        assertTrue(data.size() >= 2);
        for (WireTap.Seen s : data) {
            assertEquals(0xC7AC, s.udpSrcPort(), "as the RC QPs of vectors/rxe/write_bw_rdmacm.pcap: " + s);
        }
    }

    /** ib_write_bw -R's first REQ (write_bw_rdmacm.pcap frame 22) from the same addresses and ports. */
    private static byte[] capturedReq() {
        Path file = RxeCaptures.files().stream().filter(p -> p.getFileName().toString().equals("write_bw_rdmacm.pcap"))
                .findFirst().orElseThrow();
        List<CaptureRecord> records = RxeCaptures.read(file);
        try {
            ParsedFrame p = new ParsedFrame();
            for (CaptureRecord r : records) {
                ByteBuf f = r.content();
                if (p.parse(f) == null && p.isRoce() && Bth.destQp(f, p.bthOffset()) == 1
                        && MadHeader.attributeId(f, p.payloadOffset()) == CmAttribute.REQ.id()) {
                    return ByteBufUtil.getBytes(f, p.payloadOffset(), p.payloadLength());
                }
            }
        } finally {
            records.forEach(CaptureRecord::release);
        }
        throw new AssertionError("no REQ in " + file);
    }

    @Test
    void theReqIsRxesReqButForItsRandomFields() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        cmA.connect(qpA, IP_B, 18515, 42805, PARAMS, eventsA::add);
        assertTrue(runUntil(() -> !mads("a").isEmpty(), 1_000_000_000L));
        ByteBuf ours = mad(mads("a").get(0));
        ByteBuf theirs = Unpooled.wrappedBuffer(capturedReq());
        CmReq mine = CmReq.decode(ours, MadHeader.LENGTH);
        // the fields each side draws at random: communication ID (and the TID made of it) and the PSN
        int d = MadHeader.LENGTH;
        theirs.setInt(d, mine.localCommId());
        theirs.setMedium(d + 44, mine.startingPsn());
        theirs.setLong(MadHeader.TRANSACTION_ID, MadHeader.transactionId(ours, 0));
        assertEquals(ByteBufUtil.hexDump(theirs), ByteBufUtil.hexDump(ours));
    }

    @Test
    void theActiveSideChoosesTheTrafficClassAndCanCapThePathMtu() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        // rdma_cm's TOS 106 (DSCP 26, ECT(0)) and a 512-byte path on these 1024-byte ports
        cmA.connect(qpA, IP_B, 18515, 0, new CmConnectParams(0, 0, 7, 7, 512, 106), eventsA::add);
        assertTrue(runUntil(() -> eventsB.size() == 2 && eventsA.size() == 1, 1_000_000_000L));
        CmReq req = eventsB.get(0).request();
        assertEquals(106, req.primary().trafficClass());
        assertEquals(2, req.pathMtu(), "the REQ offers 512 bytes (IB MTU enum 2)");
        // both QPs: the path's traffic class and the smaller MTU
        assertEquals(106, qpA.av().trafficClass());
        assertEquals(106, qpB.av().trafficClass());
        assertEquals(512, qpA.pathMtu());
        assertEquals(512, qpB.pathMtu());
        byte[] src = new byte[2048];
        MemoryRegion mrA = pdA.registerMr(src, 0x1000, AccessFlags.LOCAL_WRITE);
        MemoryRegion mrB = pdB.registerMr(new byte[2048], 0x2000, AccessFlags.ALL);
        qpA.postSend(SendWr.write(9, Sge.of(mrA), 0x2000, mrB.rkey()));
        assertTrue(runUntil(() -> cqA.size() == 1, 1_000_000_000L));
        assertTrue(cqA.poll().isSuccess());
        List<WireTap.Seen> data = wire.stream().filter(s -> s.destQp() != SoftNic.GSI_QPN).toList();
        assertEquals(4, data.stream().filter(s -> s.from().equals("a")).count(), "2048 bytes in 512-byte packets");
        for (WireTap.Seen s : data) {
            assertEquals(106, s.bytes()[15] & 0xFF, "IPv4 TOS of " + s);
        }
    }

    /** rdma_set_ack_timeout: the active side's QP takes the set exponent; without it, rdma_cm's own (19 here). */
    @Test
    void anAckTimeoutSetByTheActiveSideIsItsQpsAndTheReqDoesNotChange() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        cmA.connect(qpA, IP_B, 18515, 42805, new CmConnectParams(0, 0, 3, 7, 0, 0, 8), eventsA::add);
        assertTrue(runUntil(() -> eventsB.size() == 2 && eventsA.size() == 1, 1_000_000_000L));
        assertEquals(8, qpA.localAckTimeout(), "the exponent rdma_set_ack_timeout set");
        assertEquals(3, qpA.retryCnt());
        assertEquals(19, qpB.localAckTimeout(), "the passive side keeps rdma_cm's: the REQ's packet lifetime + 1");
        assertEquals(19, eventsB.get(0).request().primary().localAckTimeout(),
            "the REQ carries the path's timeout as before");
        assertThrows(IllegalArgumentException.class, () -> new CmConnectParams(0, 0, 3, 7, 0, 0, 32));
    }

    @Test
    void aRequestForAPortNobodyListensOnIsRejected() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        CmId id = cmA.connect(qpA, IP_B, 9999, 0, PARAMS, eventsA::add);
        assertTrue(runUntil(() -> !eventsA.isEmpty(), 1_000_000_000L));
        assertEquals(CmEventType.REJECTED, eventsA.get(0).type());
        assertEquals(CmRej.REASON_INVALID_SERVICE_ID, eventsA.get(0).rejectReason());
        assertEquals(CmState.REJECTED, id.state());
        assertEquals(QpState.INIT, qpA.state());
        assertTrue(eventsB.isEmpty());
    }

    @Test
    void oversizedSendsToQp1DoNotStarveItAndRdmaCmStillConnects() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        // a UD QP on a sends QP1 of b, with QP1's Q_Key, more SENDs longer than a MAD than QP1 has
        // receives: each one completes a receive with IBV_WC_LOC_LEN_ERR (IBA 9.8.3). A Q_Key with
        // its top bit set in a WR means "the QP's own" (IBA 10.2.5), so the QP has QP1's.
        CompletionQueue cq = a.createCq(256);
        QueuePair ud = a.createQp(pdA, QpType.UD, cq, cq, QpCaps.defaults());
        ud.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(MadHeader.GSI_QKEY));
        ud.modify(new QpAttr().state(QpState.RTR));
        ud.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
        MemoryRegion big = pdA.registerMr(new byte[300], 0x8000, AccessFlags.LOCAL_WRITE);
        int flood = 100;
        for (int i = 0; i < flood; i++) {
            ud.postSend(SendWr.send(i, Sge.of(big)).ud(AddressHandle.ipv4(IP_B), SoftNic.GSI_QPN, MadHeader.GSI_QKEY));
        }
        assertTrue(runUntil(() -> b.counters().get(NicCounter.RCVD_PKTS) >= flood, 1_000_000_000L));
        assertEquals(flood, wire.stream().filter(s -> s.from().equals("a") && s.destQp() == SoftNic.GSI_QPN
                && s.payloadLength() == 300).count());
        assertEquals(0, b.counters().get(NicCounter.DROP_BAD_QKEY), "QP1 took them all");

        // every receive came back: rdma_cm connects as before, not RDMA_CM_EVENT_UNREACHABLE
        CmId id = cmA.connect(qpA, IP_B, 18515, 0, PARAMS, eventsA::add);
        assertTrue(runUntil(() -> !eventsA.isEmpty(), 200_000_000_000L));
        assertEquals(CmEventType.ESTABLISHED, eventsA.get(0).type());
        assertEquals(CmState.ESTABLISHED, id.state());
        assertEquals(1, mads("a").stream().filter(s -> s.payloadLength() == MadHeader.MAD_SIZE
                && attribute(s) == CmAttribute.REQ.id()).count(), "the first REQ was taken, not resent");
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS));
    }

    @Test
    void aLostRequestIsSentAgainAfterTheResponseTimeout() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        cmA.connect(qpA, IP_B, 18515, 0, PARAMS, eventsA::add);
        // B has no QP1 yet: the first REQ is dropped as for an unknown QP
        sched.runFor(1_000_000_000L);
        assertEquals(1, mads("a").size());
        assertTrue(b.counters().get(NicCounter.DROP_UNKNOWN_QP) >= 1);
        listeningB();
        assertTrue(runUntil(() -> eventsA.size() == 1, 10_000_000_000L));
        assertEquals(CmEventType.ESTABLISHED, eventsA.get(0).type());
        assertEquals(2, mads("a").stream().filter(s -> attribute(s) == 0x10).count());
        // ib_cm's timeout: the peer's response time (4.096 µs × 2^20) plus twice the packet lifetime (2^18)
        assertTrue(sched.nanoTime() >= 4096L * (1 << 20) + 2 * 4096L * (1 << 18), "at " + sched.nanoTime());
    }

    @Test
    void aFailureInTheManagersTimerPutsTheDeviceInTheFatalState() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        // the timer that gives up after the last resend hands UNREACHABLE to this handler, which fails
        cmA.connect(qpA, IP_B, 18515, 0, PARAMS, e -> {
            eventsA.add(e);
            throw new IllegalStateException("injected failure of the event handler");
        });
        assertTrue(runUntil(() -> a.counters().get(NicCounter.INTERNAL_ERRORS) > 0, 200_000_000_000L));
        assertEquals(List.of(CmEventType.UNREACHABLE), eventsA.stream().map(CmEvent::type).toList());
        AsyncEvent event = a.pollAsyncEvent();
        assertEquals(AsyncEventType.DEVICE_FATAL, event == null ? null : event.type());
        assertEquals(QpState.ERR, qpA.state(), "the device's QPs are in error");
    }

    @Test
    void aRequestNeverAnsweredEndsUnreachableAfterFifteenRetries() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        CmId id = cmA.connect(qpA, IP_B, 18515, 0, PARAMS, eventsA::add);
        assertTrue(runUntil(() -> !eventsA.isEmpty(), 200_000_000_000L));
        assertEquals(CmEventType.UNREACHABLE, eventsA.get(0).type());
        assertEquals(CmState.CLOSED, id.state());
        assertEquals(16, mads("a").size());
    }

    @Test
    void disconnectSendsDreqAndBothQpsEndInError() {
        ConnectionManager cmA = ConnectionManager.start(a, 1);
        listeningB();
        CmId id = cmA.connect(qpA, IP_B, 18515, 0, PARAMS, eventsA::add);
        assertTrue(runUntil(() -> eventsB.size() == 2 && eventsA.size() == 1, 1_000_000_000L));
        cmA.disconnect(id);
        assertTrue(runUntil(() -> eventsA.size() == 2 && eventsB.size() == 3, 1_000_000_000L));
        assertEquals(CmEventType.DISCONNECTED, eventsA.get(1).type());
        assertEquals(CmEventType.DISCONNECTED, eventsB.get(2).type());
        assertEquals(QpState.ERR, qpA.state());
        assertEquals(QpState.ERR, qpB.state());
        WireTap.Seen dreq = mads("a").get(2);
        assertEquals(0x15, attribute(dreq));
        ByteBuf m = mad(dreq);
        assertEquals(qpB.qpn(), m.getUnsignedMedium(MadHeader.LENGTH + 8), "DREQ names the peer's QPN");
        WireTap.Seen drep = mads("b").get(1);
        assertEquals(0x16, attribute(drep));
        assertEquals(MadHeader.transactionId(m, 0), MadHeader.transactionId(mad(drep), 0));
        assertNotNull(eventsB.get(2).id());
    }
}
