package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Path migration with real frames: two dual-port NICs cabled port to port, RC QPs on port 1 with
 * an armed alternate path on port 2; WRITEs go on while the primary link is cut (migration on
 * failure) or while the consumer asks for it (migration on request).
 */
class PathMigrationTransferTest {
    private static final long VA = 0x5000_0000L;
    private static final int WRITES = 200;
    private static final int SIZE = 8192;
    /** 4.096 us * 2^10: a 4.2 ms local ACK timeout, 3 retries on the primary path. */
    private static final int TIMEOUT = 10;
    private static final int RETRIES = 3;
    /** The BTH's flags byte in an untagged IPv4 RoCEv2 frame: 14 + 20 + 8 + 1. */
    private static final int BTH_FLAGS = 43;

    private static final class Armed {
        final NicRig r;
        final QueuePair a;
        final QueuePair b;
        final List<AsyncEvent> eventsA = new ArrayList<>();
        final List<AsyncEvent> eventsB = new ArrayList<>();
        final byte[] src = new byte[WRITES * SIZE];
        final byte[] dst = new byte[WRITES * SIZE];
        final MemoryRegion s;
        final MemoryRegion d;

        Armed(NicRig r) {
            this.r = r;
            a = r.newQpA();
            b = r.newQpB();
            NicRig.connect(a, b, 1, NicRig.IP_B1, TIMEOUT, RETRIES);
            NicRig.connect(b, a, 1, NicRig.IP_A1, TIMEOUT, RETRIES);
            a.modify(new QpAttr().altPath(AddressHandle.ipv4(Ipv4.parse(NicRig.IP_B2)), 2, TIMEOUT, 0)
                    .pathMigState(MigState.REARM));
            b.modify(new QpAttr().altPath(AddressHandle.ipv4(Ipv4.parse(NicRig.IP_A2)), 2, TIMEOUT, 0)
                    .pathMigState(MigState.REARM));
            r.a.onAsyncEvent(eventsA::add);
            r.b.onAsyncEvent(eventsB::add);
            new Random(7).nextBytes(src);
            s = r.pdA.registerMr(src, VA, AccessFlags.LOCAL_WRITE);
            d = r.pdB.registerMr(dst, VA, AccessFlags.ALL);
        }

        /** The first WRITE and its ACK, each with MigReq 0, arm both ends. */
        void postAndArm(int to) {
            post(0, 1);
            assertTrue(r.runUntil(() -> a.pathMigState() == MigState.ARMED && b.pathMigState() == MigState.ARMED,
                    100_000_000L), "armed: " + a.pathMigState() + " " + b.pathMigState());
            post(1, to);
        }

        void post(int from, int to) {
            for (int i = from; i < to; i++) {
                a.postSend(SendWr.write(i, new Sge(s.addr() + (long) i * SIZE, SIZE, s.lkey()),
                        d.addr() + (long) i * SIZE, d.rkey()).signaled(true));
            }
        }

        List<WorkCompletion> awaitAll() {
            List<WorkCompletion> wcs = new ArrayList<>();
            assertTrue(r.runUntil(() -> {
                wcs.addAll(NicRig.drain(r.cqA));
                return wcs.size() == WRITES;
            }, 5_000_000_000L), "all WRITEs complete: " + wcs.size());
            return wcs;
        }
    }

    private static int migReq(WireTap.Seen s) {
        return (s.bytes()[BTH_FLAGS] >> 6) & 1;
    }

    @Test
    void cuttingThePrimaryLinkMidTransferMigratesWithoutAnErrorCompletion() {
        try (NicRig r = NicRig.dualPort()) {
            Armed t = new Armed(r);
            t.postAndArm(WRITES);
            // let part of the transfer through, then cut the primary cable
            assertTrue(r.runUntil(() -> r.cqA.size() >= 20, 1_000_000_000L));
            r.link1.setUp(false);
            List<WorkCompletion> wcs = t.awaitAll();
            for (int i = 0; i < wcs.size(); i++) {
                assertEquals(WcStatus.SUCCESS, wcs.get(i).status(), "no error completion: " + wcs.get(i));
                assertEquals(i, wcs.get(i).wrId(), "in order");
            }
            assertArrayEquals(t.src, t.dst, "every byte written");
            assertEquals(List.of(AsyncEventType.PORT_ERR, AsyncEventType.PATH_MIG),
                    t.eventsA.stream().map(AsyncEvent::type).toList(), "port 1 down, then the requester migrated");
            assertEquals(1, t.eventsA.get(0).port());
            assertEquals(t.a, t.eventsA.get(1).qp());
            assertTrue(t.eventsB.stream().anyMatch(e -> e.type() == AsyncEventType.PATH_MIG && e.qp() == t.b),
                    "the responder migrated on MigReq: " + t.eventsB);
            assertEquals(MigState.MIGRATED, t.a.pathMigState());
            assertEquals(2, t.a.port().number());
            assertEquals(2, t.b.port().number());
            assertEquals(1, r.a.pathMigrations(), "the NIC counts its QP's migration");
            assertEquals(1, r.b.pathMigrations(), "and the peer's NIC its responder's");
            assertEquals(0, r.a.counters().get(NicCounter.RETRY_EXCEEDED_ERR));
            assertEquals(RETRIES, r.a.port(1).counters().get(NicCounter.COMPLETER_RETRY_ERR),
                    "the primary path's retries were spent first");
            List<WireTap.Seen> onLink1 = NicRig.from(r.wire1, "a");
            List<WireTap.Seen> onLink2 = NicRig.from(r.wire2, "a");
            assertTrue(onLink1.stream().allMatch(f -> migReq(f) == 0), "REARM and ARMED send MigReq 0");
            assertTrue(!onLink2.isEmpty() && onLink2.stream().allMatch(f -> migReq(f) == 1),
                    "MIGRATED sends MigReq 1 on the new path");
            assertTrue(NicRig.from(r.wire2, "b").stream().allMatch(f -> migReq(f) == 1), "and so does b");
        }
    }

    @Test
    void migrationOnRequestMovesBothEndsAtOnce() {
        try (NicRig r = NicRig.dualPort()) {
            Armed t = new Armed(r);
            t.postAndArm(WRITES / 2);
            assertTrue(r.runUntil(() -> r.cqA.size() == WRITES / 2, 1_000_000_000L));
            t.a.modify(new QpAttr().pathMigState(MigState.MIGRATED));
            assertEquals(2, t.a.port().number());
            t.post(WRITES / 2, WRITES);
            List<WorkCompletion> wcs = t.awaitAll();
            assertTrue(wcs.stream().allMatch(w -> w.status() == WcStatus.SUCCESS), wcs.toString());
            assertArrayEquals(t.src, t.dst);
            assertEquals(1, t.eventsA.size(), t.eventsA.toString());
            assertEquals(1, t.eventsB.size(), "b migrated on the first MigReq packet: " + t.eventsB);
            assertEquals(2, t.b.port().number());
            assertEquals(0, r.a.port(2).counters().get(NicCounter.COMPLETER_RETRY_ERR), "nothing lost: no retry");
            assertEquals(0, r.a.port(1).counters().get(NicCounter.COMPLETER_RETRY_ERR));
            assertEquals(WRITES / 2 * SIZE / 1024, NicRig.from(r.wire2, "a").size(),
                    "the second half on link 2, MTU-sized");
        }
    }

    @Test
    void withoutAnArmedAlternatePathTheFailureIsRetryExceeded() {
        try (NicRig r = NicRig.dualPort()) {
            QueuePair a = r.newQpA();
            QueuePair b = r.newQpB();
            NicRig.connect(a, b, 1, NicRig.IP_B1, TIMEOUT, RETRIES);
            NicRig.connect(b, a, 1, NicRig.IP_A1, TIMEOUT, RETRIES);
            a.modify(new QpAttr().altPath(AddressHandle.ipv4(Ipv4.parse(NicRig.IP_B2)), 2, TIMEOUT, 0)
                    .pathMigState(MigState.REARM));
            byte[] dst = new byte[SIZE];
            MemoryRegion d = r.pdB.registerMr(dst, VA, AccessFlags.ALL);
            MemoryRegion s = r.pdA.registerMr(new byte[SIZE], VA, AccessFlags.LOCAL_WRITE);
            r.link1.setUp(false);
            a.postSend(SendWr.write(1, Sge.of(s), d.addr(), d.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, 5_000_000_000L));
            assertEquals(WcStatus.RETRY_EXC_ERR, r.cqA.poll().status(), "never armed (b has no alternate path): no migration");
            assertEquals(MigState.REARM, a.pathMigState());
            assertEquals(1, a.port().number());
        }
    }
}
