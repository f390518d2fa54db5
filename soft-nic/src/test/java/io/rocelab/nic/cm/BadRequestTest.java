package io.rocelab.nic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.mad.CmAttribute;
import io.rocelab.codec.mad.CmPath;
import io.rocelab.codec.mad.CmRej;
import io.rocelab.codec.mad.CmReq;
import io.rocelab.codec.mad.CmServiceId;
import io.rocelab.codec.mad.CmaIpHeader;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.net.Gid;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SoftNic;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A REQ the passive side cannot connect a QP with is answered with a REJ naming the field's reason
 * (IBA 12.6.7.2 table 102) and never reaches the listener, which goes on taking requests: a path
 * MTU of enum 0 (128 bytes, no valid path MTU) used to reach {@code accept}, whose QP modify threw,
 * ending an {@code ib_write_bw -R} server. The REQs come from a bare QP1 agent, as from a peer that
 * writes whatever it likes.
 */
class BadRequestTest {
    private static final int IP_A = Ipv4.parse("10.77.3.11");
    private static final int IP_B = Ipv4.parse("10.77.3.10");
    private static final int PORT = 18515;
    private static final CmConnectParams PARAMS = new CmConnectParams(0, 0, 7, 7);

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final SoftNic a;
    private final SoftNic b;
    /** Copies of the MADs a's bare agent received, in order. */
    private final List<byte[]> toA = new ArrayList<>();
    private final List<CmEvent> eventsB = new ArrayList<>();
    private final GsiAgent attacker;

    BadRequestTest() {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(10).propagationDelayNanos(500).seed(6)
                .build(sched);
        a = SoftNic.builder().name("a").mac("52:54:00:7a:00:01").ipv4(IP_A).scheduler(sched).port(link.portA())
                .build();
        b = SoftNic.builder().name("b").mac("52:54:00:7a:00:00").ipv4(IP_B).scheduler(sched).port(link.portB())
                .build();
        attacker = new GsiAgent(a, 1, (mad, from, port) -> toA.add(ByteBufUtil.getBytes(mad)));
        attacker.start();
        ConnectionManager cmB = ConnectionManager.start(b, 2);
        cmB.listen(PORT, e -> {
            eventsB.add(e);
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                cmB.accept(e.id(), rcQp(b), PARAMS); // what ib_write_bw -R's server does with each request
            }
        });
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        sched.runFor(1_000_000_000L);
    }

    private static QueuePair rcQp(SoftNic nic) {
        CompletionQueue cq = nic.createCq(16);
        QueuePair qp = nic.createQp(nic.allocPd(), QpType.RC, cq, cq, QpCaps.defaults());
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.LOCAL_WRITE));
        return qp;
    }

    /** A REQ as rdma_cm sends one for {@code ib_write_bw -R}, with the given path MTU enum and transport. */
    private static CmReq request(int localCommId, int pathMtu, int transportServiceType) throws Exception {
        byte[] pd = new byte[CmReq.PRIVATE_DATA_LENGTH];
        CmaIpHeader.ipv4(InetAddress.getByName("10.77.3.11"), 40000, InetAddress.getByName("10.77.3.10"))
                .encode(Unpooled.wrappedBuffer(pd), 0);
        CmPath primary = new CmPath(0xFFFF, 0xFFFF, Gid.ipv4Mapped(IP_A).toBytes(), Gid.ipv4Mapped(IP_B).toBytes(),
                (40000 * 31 + PORT) & 0xFFFFF, 0, 0, 0, 64, 0, 0, 0, 19, 0);
        return new CmReq(localCommId, 0, CmServiceId.ip(CmServiceId.PROTOCOL_TCP, PORT), 0x0252_54ff_fe7a_0001L, 0,
                0, 0x11, 0, 0, 0, 0, 20, transportServiceType, 0, 0x123456, 20, 7, 0xFFFF, pathMtu, 0, 7, 15, 0, 0,
                primary, CmPath.NONE, pd);
    }

    private void send(CmReq req, long tid) {
        attacker.send(IP_B, m -> {
            MadHeader.writeCm(m, 0, tid, CmAttribute.REQ);
            req.encode(m, MadHeader.LENGTH);
        });
        sched.runFor(10_000_000L);
    }

    private static int attribute(byte[] mad) {
        return MadHeader.attributeId(Unpooled.wrappedBuffer(mad), 0);
    }

    private static CmRej rej(byte[] mad) {
        return CmRej.decode(Unpooled.wrappedBuffer(mad), MadHeader.LENGTH);
    }

    @Test
    void aPathMtuOfEnumZeroIsRejectedAsAnInvalidMtuAndTheListenerGoesOn() throws Exception {
        send(request(0x1111, 0, 0), 1);
        assertEquals(1, toA.size(), "one answer");
        assertEquals(CmAttribute.REJ.id(), attribute(toA.get(0)));
        CmRej rej = rej(toA.get(0));
        assertEquals(CmRej.REASON_INVALID_MTU, rej.reason(), "IBA table 102: 26, invalid path MTU");
        assertEquals(0x1111, rej.remoteCommId(), "names the rejected request");
        assertEquals(0, rej.messageRejected(), "the message rejected is a REQ");
        assertEquals(1L, MadHeader.transactionId(Unpooled.wrappedBuffer(toA.get(0)), 0), "in the REQ's transaction");
        assertEquals(List.of(), eventsB, "the listener never saw it");
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS));

        // the listener goes on: a good request (1024-byte path) is accepted and answered with a REP
        send(request(0x2222, 3, 0), 2);
        assertEquals(List.of(CmEventType.CONNECT_REQUEST), eventsB.stream().map(CmEvent::type).toList());
        assertEquals(CmAttribute.REP.id(), attribute(toA.get(1)));
        assertEquals(0, b.counters().get(NicCounter.INTERNAL_ERRORS));
        assertEquals(null, b.pollAsyncEvent(), "no IBV_EVENT_DEVICE_FATAL");
    }

    @Test
    void everyReservedPathMtuIsRejected() throws Exception {
        int tid = 10;
        for (int mtu : new int[] {0, 6, 7, 15}) {
            send(request(0x3000 + mtu, mtu, 0), tid++);
        }
        assertEquals(4, toA.size());
        for (byte[] m : toA) {
            assertEquals(CmAttribute.REJ.id(), attribute(m));
            assertEquals(CmRej.REASON_INVALID_MTU, rej(m).reason());
        }
        assertTrue(eventsB.isEmpty(), eventsB.toString());
    }

    @Test
    void aRequestForAnUnreliableConnectionIsRejectedAsAnInvalidTransportType() throws Exception {
        send(request(0x4444, 3, 1), 3); // UC
        assertEquals(1, toA.size());
        assertEquals(CmRej.REASON_INVALID_TRANSPORT_TYPE, rej(toA.get(0)).reason(), "IBA table 102: 9");
        assertTrue(eventsB.isEmpty(), eventsB.toString());
    }
}
