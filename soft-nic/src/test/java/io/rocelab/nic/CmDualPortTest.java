package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.mad.CmAttribute;
import io.rocelab.codec.mad.CmReq;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.nic.cm.CmConnectParams;
import io.rocelab.nic.cm.CmEvent;
import io.rocelab.nic.cm.CmEventType;
import io.rocelab.nic.cm.CmId;
import io.rocelab.nic.cm.CmState;
import io.rocelab.nic.cm.ConnectionManager;
import io.rocelab.nic.net.Gid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The connection manager on a dual-port NIC: each port has its QP1, a connection lives on the port
 * of its local address (the active side) or the port its REQ arrived on (the passive side), its
 * MADs leave by that port with that port's address and GID, and its QP is moved to that port.
 */
class CmDualPortTest {
    private static final CmConnectParams PARAMS = new CmConnectParams(0, 0, 7, 7);
    private static final int IP_A2 = Ipv4.parse(NicRig.IP_A2);
    private static final int IP_B1 = Ipv4.parse(NicRig.IP_B1);
    private static final int IP_B2 = Ipv4.parse(NicRig.IP_B2);

    /** B listens on 18515 and accepts each request on the next of {@code qps} (made on port 1). */
    private static List<CmEvent> acceptInOrder(ConnectionManager cmB, List<QueuePair> qps) {
        List<CmEvent> events = new ArrayList<>();
        cmB.listen(18515, e -> {
            events.add(e);
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                cmB.accept(e.id(), qps.get((int) events.stream()
                        .filter(x -> x.type() == CmEventType.CONNECT_REQUEST).count() - 1), PARAMS);
            }
        });
        return events;
    }

    private static QueuePair initOnPort(QueuePair qp, int port) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(port).accessFlags(AccessFlags.ALL));
        return qp;
    }

    private static List<WireTap.Seen> mads(List<WireTap.Seen> wire) {
        return wire.stream().filter(s -> s.destQp() == SoftNic.GSI_QPN).toList();
    }

    private static ByteBuf mad(WireTap.Seen s) {
        ByteBuf f = Unpooled.wrappedBuffer(s.bytes());
        ParsedFrame p = new ParsedFrame();
        p.parse(f);
        return f.slice(p.payloadOffset(), p.payloadLength());
    }

    private static byte[] write(NicRig r, QueuePair from, int id, String text, long va) {
        byte[] src = text.getBytes();
        byte[] dst = new byte[src.length];
        MemoryRegion s = r.pdA.registerMr(src, va, AccessFlags.LOCAL_WRITE);
        MemoryRegion d = r.pdB.registerMr(dst, va, AccessFlags.ALL);
        from.postSend(SendWr.write(id, Sge.of(s), d.addr(), d.rkey()).signaled(true));
        return dst;
    }

    @Test
    void aConnectionFromPort2sAddressLivesOnPort2BothWays() {
        try (NicRig r = NicRig.dualPort()) {
            ConnectionManager cmA = ConnectionManager.start(r.a, 1);
            ConnectionManager cmB = ConnectionManager.start(r.b, 2);
            QueuePair qpB = initOnPort(r.newQpB(), 1);
            List<CmEvent> eventsB = acceptInOrder(cmB, List.of(qpB));
            // the QP starts on port 1: rdma_bind_addr to port 2's address moves the connection there
            QueuePair qpA = initOnPort(r.newQpA(), 1);
            List<CmEvent> eventsA = new ArrayList<>();
            CmId id = cmA.connect(qpA, IP_A2, IP_B2, 18515, 42805, PARAMS, eventsA::add);
            assertTrue(r.runUntil(() -> id.state() == CmState.ESTABLISHED && eventsB.size() == 2, 1_000_000_000L));
            assertEquals(2, id.port());
            CmEvent request = eventsB.get(0);
            assertEquals(CmEventType.CONNECT_REQUEST, request.type());
            assertEquals(2, request.id().port(), "the REQ came in on b's port 2");
            assertEquals("/10.2.0.1", request.ipHeader().sourceAddress().toString());
            assertEquals(2, qpA.port().number(), "a's QP moved to its address's port");
            assertEquals(2, qpB.port().number(), "b's QP moved to the port the REQ came in on");
            assertEquals(QpState.RTS, qpA.state());
            assertEquals(QpState.RTS, qpB.state());

            // every MAD on link 2: REQ and RTU from a, REP from b; none on link 1
            assertEquals(List.of(), mads(r.wire1));
            assertEquals(List.of(CmAttribute.REQ.id(), CmAttribute.RTU.id()),
                    mads(NicRig.from(r.wire2, "a")).stream().map(s -> MadHeader.attributeId(mad(s), 0)).toList());
            assertEquals(List.of(CmAttribute.REP.id()),
                    mads(NicRig.from(r.wire2, "b")).stream().map(s -> MadHeader.attributeId(mad(s), 0)).toList());
            // the REQ's path: port 2's GIDs both ends
            CmReq req = CmReq.decode(mad(mads(r.wire2).get(0)), MadHeader.LENGTH);
            assertArrayEquals(Gid.ipv4Mapped(IP_A2).toBytes(), req.primary().localGid());
            assertArrayEquals(Gid.ipv4Mapped(IP_B2).toBytes(), req.primary().remoteGid());

            byte[] dst = write(r, qpA, 7, "over port 2", 0x10_0000);
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, 1_000_000_000L));
            assertEquals(WcStatus.SUCCESS, r.cqA.poll().status());
            assertArrayEquals("over port 2".getBytes(), dst);
            assertTrue(NicRig.from(r.wire1, "a").isEmpty(), "nothing of a's on link 1");

            // the disconnect on port 2 too
            cmA.disconnect(id);
            assertTrue(r.runUntil(() -> id.state() == CmState.CLOSED, 1_000_000_000L));
            assertEquals(List.of(), mads(r.wire1));
            assertTrue(mads(NicRig.from(r.wire2, "b")).stream()
                    .anyMatch(s -> MadHeader.attributeId(mad(s), 0) == CmAttribute.DREP.id()));
        }
    }

    @Test
    void port1AndPort2ConnectionsAtOnce() {
        try (NicRig r = NicRig.dualPort()) {
            ConnectionManager cmA = ConnectionManager.start(r.a, 5);
            ConnectionManager cmB = ConnectionManager.start(r.b, 6);
            QueuePair b1 = initOnPort(r.newQpB(), 1);
            QueuePair b2 = initOnPort(r.newQpB(), 1);
            List<CmEvent> eventsB = acceptInOrder(cmB, List.of(b1, b2));
            // a's QPs bound in INIT: one per port; the CM takes each one's port and address
            QueuePair a1 = initOnPort(r.newQpA(), 1);
            QueuePair a2 = initOnPort(r.newQpA(), 2);
            CmId one = cmA.connect(a1, IP_B1, 18515, 0, PARAMS, e -> { });
            CmId two = cmA.connect(a2, IP_B2, 18515, 0, PARAMS, e -> { });
            assertTrue(r.runUntil(() -> one.state() == CmState.ESTABLISHED && two.state() == CmState.ESTABLISHED,
                    1_000_000_000L));
            assertEquals(1, one.port());
            assertEquals(2, two.port());
            Map<Integer, Integer> portOfPeerQp = new ConcurrentHashMap<>();
            for (CmEvent e : eventsB) {
                if (e.type() == CmEventType.CONNECT_REQUEST) {
                    portOfPeerQp.put(e.request().localQpn(), e.id().port());
                }
            }
            assertEquals(Map.of(a1.qpn(), 1, a2.qpn(), 2), portOfPeerQp, "each REQ answered on its own port");
            assertEquals(a1.qpn(), b1.destQpn());
            assertEquals(1, b1.port().number());
            assertEquals(a2.qpn(), b2.destQpn());
            assertEquals(2, b2.port().number());
            assertEquals(1, mads(NicRig.from(r.wire1, "b")).size(), "one REP on link 1");
            assertEquals(1, mads(NicRig.from(r.wire2, "b")).size(), "one REP on link 2");

            byte[] dst1 = write(r, a1, 1, "port one", 0x10_0000);
            byte[] dst2 = write(r, a2, 2, "port two", 0x20_0000);
            assertTrue(r.runUntil(() -> r.cqA.size() == 2, 1_000_000_000L));
            for (WorkCompletion wc : NicRig.drain(r.cqA)) {
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            }
            assertArrayEquals("port one".getBytes(), dst1);
            assertArrayEquals("port two".getBytes(), dst2);
            assertTrue(NicRig.from(r.wire1, "a").stream().filter(s -> s.destQp() != SoftNic.GSI_QPN)
                    .allMatch(s -> s.destQp() == b1.qpn()), "link 1 carries the port-1 connection only");
            assertTrue(NicRig.from(r.wire2, "a").stream().filter(s -> s.destQp() != SoftNic.GSI_QPN)
                    .allMatch(s -> s.destQp() == b2.qpn()), "link 2 carries the port-2 connection only");
        }
    }

    @Test
    void aBondedNicsOneQp1TakesMadsOnEitherLink() {
        try (NicRig r = NicRig.bonded(BondMode.ACTIVE_BACKUP)) {
            ConnectionManager cmA = ConnectionManager.start(r.a, 1);
            ConnectionManager cmB = ConnectionManager.start(r.b, 2);
            // the active link fails first: the bond's MADs and QPs go over link 2, which is port 1's too
            r.link1.setUp(false);
            r.runFor(1_000_000);
            assertEquals(2, r.a.bond().activePort());
            QueuePair qpB = initOnPort(r.newQpB(), 1);
            List<CmEvent> eventsB = acceptInOrder(cmB, List.of(qpB));
            QueuePair qpA = initOnPort(r.newQpA(), 1);
            CmId id = cmA.connect(qpA, Ipv4.parse(NicRig.IP_B1), 18515, 0, PARAMS, e -> { });
            assertTrue(r.runUntil(() -> id.state() == CmState.ESTABLISHED && eventsB.size() == 2, 1_000_000_000L));
            assertEquals(1, id.port(), "a bond is one port");
            assertEquals(1, eventsB.get(0).id().port());
            assertEquals(List.of(CmAttribute.REQ.id(), CmAttribute.RTU.id()),
                    mads(NicRig.from(r.wire2, "a")).stream().map(s -> MadHeader.attributeId(mad(s), 0)).toList(),
                    "the MADs crossed link 2");
        }
    }

    @Test
    void anAddressNoPortHasIsRefused() {
        try (NicRig r = NicRig.dualPort()) {
            ConnectionManager cmA = ConnectionManager.start(r.a, 1);
            QueuePair qp = initOnPort(r.newQpA(), 1);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> cmA.connect(qp, Ipv4.parse("10.9.9.9"), IP_B2, 18515, 0, PARAMS, x -> { }));
            assertTrue(e.getMessage().contains("EADDRNOTAVAIL"), e.getMessage());
        }
    }

    @Test
    void eachPortHasItsOwnQp1() {
        try (NicRig r = NicRig.dualPort()) {
            ConnectionManager.start(r.a, 1);
            CompletionQueue cq = r.a.createCq(4);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> r.a.createGsiQp(2, r.pdA, cq, cq, QpCaps.defaults()));
            assertTrue(e.getMessage().contains("port 2"), e.getMessage());
        }
    }
}
