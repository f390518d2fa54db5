package io.rocelab.nic;

import static io.rocelab.nic.MigState.ARMED;
import static io.rocelab.nic.MigState.MIGRATED;
import static io.rocelab.nic.MigState.REARM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.header.Ipv4;
import io.rocelab.fabric.link.FaultProfile;
import io.rocelab.nic.net.Gid;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The path migration state machine (IBA 17.2.8) as a table, and through ibv_modify_qp. */
class PathMigrationTest {

    /** Every (state, event) pair: where it leads and whether the QP migrates; null: no step. */
    static Stream<Arguments> table() {
        List<Arguments> rows = new ArrayList<>();
        for (MigState from : MigState.values()) {
            for (PathMigration.Event e : PathMigration.Event.values()) {
                rows.add(Arguments.of(from, e, expected(from, e), from == ARMED && (e == PathMigration.Event.SET_MIGRATED
                        || e == PathMigration.Event.PATH_FAILED || e == PathMigration.Event.MIGREQ_1_ON_ALT)));
            }
        }
        return rows.stream();
    }

    /** IBA 17.2.8 in words, one case at a time. */
    private static MigState expected(MigState from, PathMigration.Event e) {
        switch (e) {
            case LOAD_ALT:
                return from == ARMED ? null : from; // loaded in MIGRATED or REARM, the state unchanged
            case SET_REARM:
                return from == MIGRATED ? REARM : null; // software: MIGRATED -> REARM only
            case SET_ARMED:
                return null; // software never arms
            case MIGREQ_0:
                return from == REARM ? ARMED : null; // the peer has its alternate path: armed
            case SET_MIGRATED:
            case PATH_FAILED:
            case MIGREQ_1_ON_ALT:
                return from == ARMED ? MIGRATED : null; // only an armed QP migrates
            default:
                throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0} --{1}--> {2}")
    @MethodSource("table")
    void theTableHoldsIbasTransitions(MigState from, PathMigration.Event e, MigState to, boolean migrates) {
        PathMigration.Step s = PathMigration.step(from, e);
        if (to == null) {
            assertNull(s);
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> PathMigration.request(from, e));
            assertTrue(x.getMessage().contains("not allowed in " + from), x.getMessage());
            return;
        }
        assertEquals(to, s.to());
        assertEquals(migrates, s.migrate());
        assertEquals(s, PathMigration.request(from, e));
    }

    private static AddressHandle to(String ip) {
        return AddressHandle.ipv4(Ipv4.parse(ip));
    }

    private static void refused(QueuePair qp, QpAttr attr, String words) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> qp.modify(attr));
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }

    @Test
    void loadingRearmingArmingAndMigratingThroughModifyQp() {
        try (NicRig r = NicRig.dualPort()) {
            QueuePair a = r.newQpA();
            QueuePair b = r.newQpB();
            NicRig.connect(a, b, 1, NicRig.IP_B1, 14, 7);
            NicRig.connect(b, a, 1, NicRig.IP_A1, 14, 7);
            List<AsyncEvent> events = new ArrayList<>();
            r.a.onAsyncEvent(events::add);
            assertEquals(MIGRATED, a.pathMigState(), "a QP starts MIGRATED with no alternate path");
            assertEquals(0, a.altPortNumber());
            refused(a, new QpAttr().pathMigState(ARMED), "ARMED is not allowed in MIGRATED (the channel adapter arms");
            refused(a, new QpAttr().pathMigState(REARM), "REARM needs an alternate path");
            refused(a, new QpAttr().pathMigState(MIGRATED), "MIGRATED is not allowed in MIGRATED");

            a.modify(new QpAttr().altPath(to(NicRig.IP_B2), 2, 12, 0));
            assertEquals(MIGRATED, a.pathMigState(), "loading an alternate path changes no state");
            assertEquals(2, a.altPortNumber());
            a.modify(new QpAttr().pathMigState(REARM));
            assertEquals(REARM, a.pathMigState());
            refused(a, new QpAttr().pathMigState(MIGRATED), "MIGRATED is not allowed in REARM");
            refused(a, new QpAttr().pathMigState(ARMED), "ARMED is not allowed in REARM");
            // b loads its alternate path and rearms in one call; a packet each way arms both
            b.modify(new QpAttr().altPath(to(NicRig.IP_A2), 2, 12, 0).pathMigState(REARM));
            byte[] dst = new byte[64];
            MemoryRegion d = r.pdB.registerMr(dst, 0x1000, AccessFlags.ALL);
            MemoryRegion s = r.pdA.registerMr(new byte[64], 0x1000, AccessFlags.LOCAL_WRITE);
            a.postSend(SendWr.write(1, Sge.of(s), d.addr(), d.rkey()).signaled(true));
            assertTrue(r.runUntil(() -> r.cqA.size() == 1, 100_000_000L));
            assertEquals(ARMED, b.pathMigState(), "armed by a's WRITE, MigReq 0");
            assertEquals(ARMED, a.pathMigState(), "armed by b's ACK, MigReq 0");
            refused(a, new QpAttr().altPath(to(NicRig.IP_B2), 2, 12, 0), "loading an alternate path is not allowed"
                    + " in ARMED");
            assertTrue(events.isEmpty(), events.toString());

            a.modify(new QpAttr().pathMigState(MIGRATED));
            assertEquals(MIGRATED, a.pathMigState());
            assertEquals(2, a.port().number(), "the alternate path is now the primary one");
            assertEquals(12, a.timeoutExponent(), "with its ACK timeout");
            assertEquals(0, a.altPortNumber(), "and no alternate path is left");
            assertEquals(List.of(AsyncEventType.PATH_MIG), events.stream().map(AsyncEvent::type).toList());
            assertEquals(a, events.get(0).qp());
            assertEquals(1, r.a.pathMigrations(), "one migration, on request");
            assertEquals(0, r.b.pathMigrations(), "b has not migrated (nothing with MigReq 1 reached it yet)");

            // IBA lets the alternate path use the same port: port 2 again, to b's link-local address
            a.modify(new QpAttr().altPath(AddressHandle.ipv6(r.b.port(2).gid(SoftNic.GID_INDEX_LINK_LOCAL),
                    SoftNic.GID_INDEX_LINK_LOCAL), 2, 14, 0).pathMigState(REARM));
            assertEquals(REARM, a.pathMigState());
            assertEquals(2, a.altPortNumber());
        }
    }

    @Test
    void badAlternatePathsAreRefusedAndChangeNothing() {
        try (NicRig r = NicRig.dualPort()) {
            QueuePair a = r.newQpA();
            QueuePair b = r.newQpB();
            NicRig.connect(a, b, 1, NicRig.IP_B1, 14, 7);
            refused(a, new QpAttr().altPath(to(NicRig.IP_B1), 1, 14, 0), "the alternate path is the primary path");
            assertThrows(IllegalArgumentException.class, () -> new QpAttr().altPath(to(NicRig.IP_B2), 3, 14, 0));
            assertThrows(IllegalArgumentException.class, () -> new QpAttr().altPath(to(NicRig.IP_B2), 2, 32, 0));
            assertThrows(IllegalArgumentException.class,
                    () -> a.modify(new QpAttr().altPath(AddressHandle.ipv6(Gid.ipv6("fd00::1"),
                            SoftNic.GID_INDEX_IPV4), 2, 14, 0)), "GID families differ");
            assertEquals(MIGRATED, a.pathMigState(), "nothing changed");
            assertEquals(0, a.altPortNumber());
            assertEquals(QpState.RTS, a.state());
            a.modify(new QpAttr().altPath(to(NicRig.IP_B2), 1, 14, 0));
            assertEquals(1, a.altPortNumber(), "the same port to another address is another path");

            QueuePair ud = r.a.createQp(r.pdA, QpType.UD, r.cqA, r.cqA, QpCaps.defaults());
            ud.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(1));
            ud.modify(new QpAttr().state(QpState.RTR));
            assertThrows(IllegalArgumentException.class,
                    () -> ud.modify(new QpAttr().state(QpState.RTS).sqPsn(0).altPath(to(NicRig.IP_B2), 2, 14, 0)),
                    "UD has no path migration");
        }
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 1)) {
            IllegalArgumentException onePort = assertThrows(IllegalArgumentException.class,
                    () -> p.qpA.modify(new QpAttr().altPath(AddressHandle.ipv4(NicRig.IP_B), 2, 14, 0)));
            assertTrue(onePort.getMessage().contains("port must be 1 on a"), onePort.getMessage());
        }
    }
}
