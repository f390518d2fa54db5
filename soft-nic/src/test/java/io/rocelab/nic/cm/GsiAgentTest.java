package io.rocelab.nic.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.mad.CmAttribute;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.fabric.link.InProcessLink;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.AsyncEvent;
import io.rocelab.nic.AsyncEventType;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpState;
import io.rocelab.nic.SoftNic;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * QP1's agent hands MADs to its handler only once started. The connection manager starts it as the
 * last step of its constructor: a REQ from a client that started first used to reach the manager
 * on the NIC's thread while the manager was still being built (its agent field not yet set), the
 * handler failed, and QP1 stopped answering (seen as {@code RDMA_CM_EVENT_UNREACHABLE} in a
 * two-thread {@code -R} session test).
 */
class GsiAgentTest {
    private static final int IP_A = Ipv4.parse("10.77.1.11");
    private static final int IP_B = Ipv4.parse("10.77.1.10");

    private final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    private final SoftNic a;
    private final SoftNic b;

    GsiAgentTest() {
        InProcessLink link = InProcessLink.builder().name("a-b").rateGbps(10).propagationDelayNanos(500).seed(5)
                .build(sched);
        a = SoftNic.builder().name("a").mac("52:54:00:78:00:01").ipv4(IP_A).scheduler(sched).port(link.portA())
                .build();
        b = SoftNic.builder().name("b").mac("52:54:00:78:00:00").ipv4(IP_B).scheduler(sched).port(link.portB())
                .build();
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
        sched.runFor(1_000_000_000L);
    }

    @Test
    void noMadReachesTheHandlerBeforeTheAgentStarts() {
        GsiAgent sender = new GsiAgent(a, 1, (mad, from, port) -> { });
        sender.start();
        List<Long> seen = new ArrayList<>();
        GsiAgent receiver = new GsiAgent(b, 1, (mad, from, port) -> {
            assertEquals(IP_A, from);
            seen.add(MadHeader.transactionId(mad, 0));
        });
        sender.send(IP_B, m -> MadHeader.writeCm(m, 0, 1, CmAttribute.REQ));
        sched.runFor(10_000_000L);
        assertEquals(List.of(), seen, "QP1 exists but has no receive posted: the MAD is dropped, not handled");

        receiver.start();
        sender.send(IP_B, m -> MadHeader.writeCm(m, 0, 2, CmAttribute.REQ));
        sched.runFor(10_000_000L);
        assertEquals(List.of(2L), seen, "handled once started");
    }

    @Test
    void aFlushedReceiveIsNotPostedAgain() {
        // a NIC of its own, whose scheduler nothing runs after this test, should the flushes loop
        VirtualTimeScheduler own = new VirtualTimeScheduler();
        InProcessLink link = InProcessLink.builder().name("c-").rateGbps(10).seed(7).build(own);
        SoftNic c = SoftNic.builder().name("c").mac("52:54:00:78:00:02").ipv4(IP_B).scheduler(own)
                .port(link.portA()).build();
        GsiAgent receiver = new GsiAgent(c, 1, (mad, from, port) -> { });
        receiver.start();
        own.runFor(1_000_000L);
        // QP1 in error flushes its 64 receives (IBA 10.3.1.7); one posted again there would be
        // flushed at once, and again, for good
        receiver.qp().modify(new QpAttr().state(QpState.ERR));
        own.run(100_000);
        assertTrue(own.isIdle(), "nothing left to do once the flushes are reaped: " + own);
        assertEquals(0, c.counters().get(NicCounter.INTERNAL_ERRORS));
    }

    @Test
    void aHandlerThatThrowsPutsTheDeviceInTheFatalState() {
        GsiAgent sender = new GsiAgent(a, 1, (mad, from, port) -> { });
        sender.start();
        GsiAgent receiver = new GsiAgent(b, 1, (mad, from, port) -> {
            throw new IllegalStateException("injected failure of the MAD handler");
        });
        receiver.start();
        sender.send(IP_B, m -> MadHeader.writeCm(m, 0, 3, CmAttribute.REQ));
        sched.runFor(10_000_000L);
        assertEquals(1, b.counters().get(NicCounter.INTERNAL_ERRORS), "an internal error, counted once");
        AsyncEvent event = b.pollAsyncEvent();
        assertEquals(AsyncEventType.DEVICE_FATAL, event == null ? null : event.type());
        assertEquals(0, a.counters().get(NicCounter.INTERNAL_ERRORS), "the sender is another device");
    }
}
