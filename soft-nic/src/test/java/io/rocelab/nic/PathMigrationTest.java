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
        PathMigration.Event load = PathMigration.Event.LOAD_ALT;
        PathMigration.Event rearm = PathMigration.Event.SET_REARM;
        PathMigration.Event arm = PathMigration.Event.SET_ARMED;
        PathMigration.Event mig = PathMigration.Event.SET_MIGRATED;
        PathMigration.Event fail = PathMigration.Event.PATH_FAILED;
        PathMigration.Event migReq = PathMigration.Event.MIGREQ_ON_ALT;
        return Stream.of(
            Arguments.of(MIGRATED, load, REARM, false),
            Arguments.of(MIGRATED, rearm, null, false),
            Arguments.of(MIGRATED, arm, null, false),
            Arguments.of(MIGRATED, mig, MIGRATED, false),
            Arguments.of(MIGRATED, fail, null, false),
            Arguments.of(MIGRATED, migReq, null, false),
            Arguments.of(REARM, load, REARM, false),
            Arguments.of(REARM, rearm, REARM, false),
            Arguments.of(REARM, arm, ARMED, false),
            Arguments.of(REARM, mig, null, false),
            Arguments.of(REARM, fail, null, false),
            Arguments.of(REARM, migReq, null, false),
            Arguments.of(ARMED, load, null, false),
            Arguments.of(ARMED, rearm, REARM, false),
            Arguments.of(ARMED, arm, ARMED, false),
            Arguments.of(ARMED, mig, MIGRATED, true),
            Arguments.of(ARMED, fail, MIGRATED, true),
            Arguments.of(ARMED, migReq, MIGRATED, true));
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

    @Test
    void loadingArmingAndMigratingThroughModifyQp() {
        try (DualPortRig r = new DualPortRig()) {
            QueuePair a = r.qpA();
            QueuePair b = r.qpB();
            DualPortRig.connect(a, b, 1, DualPortRig.IP_B1, 14, 7);
            DualPortRig.connect(b, a, 1, DualPortRig.IP_A1, 14, 7);
            List<AsyncEvent> events = new ArrayList<>();
            r.a.onAsyncEvent(events::add);
            assertEquals(MIGRATED, a.pathMigState(), "a QP starts MIGRATED with no alternate path");
            assertEquals(0, a.altPortNumber());
            IllegalArgumentException notArmable = assertThrows(IllegalArgumentException.class,
                    () -> a.modify(new QpAttr().pathMigState(ARMED)));
            assertTrue(notArmable.getMessage().contains("ARMED is not allowed in MIGRATED"), notArmable.getMessage());

            a.modify(new QpAttr().altPath(to(DualPortRig.IP_B2), 2, 12, 0));
            assertEquals(REARM, a.pathMigState(), "an alternate path loaded");
            assertEquals(2, a.altPortNumber());
            assertThrows(IllegalArgumentException.class, () -> a.modify(new QpAttr().pathMigState(MIGRATED)),
                    "nothing armed to migrate to");
            a.modify(new QpAttr().pathMigState(ARMED));
            assertEquals(ARMED, a.pathMigState());
            IllegalArgumentException whileArmed = assertThrows(IllegalArgumentException.class,
                    () -> a.modify(new QpAttr().altPath(to(DualPortRig.IP_B2), 2, 12, 0)));
            assertTrue(whileArmed.getMessage().contains("loading an alternate path is not allowed in ARMED"));
            assertTrue(events.isEmpty(), events.toString());

            a.modify(new QpAttr().pathMigState(MIGRATED));
            assertEquals(MIGRATED, a.pathMigState());
            assertEquals(2, a.port().number(), "the alternate path is now the primary one");
            assertEquals(12, a.timeoutExponent(), "with its ACK timeout");
            assertEquals(0, a.altPortNumber(), "and no alternate path is left");
            assertEquals(List.of(AsyncEventType.PATH_MIG), events.stream().map(AsyncEvent::type).toList());
            assertEquals(a, events.get(0).qp());

            // load and arm in one call, back towards port 1
            a.modify(new QpAttr().altPath(to(DualPortRig.IP_B1), 1, 14, 0).pathMigState(ARMED));
            assertEquals(ARMED, a.pathMigState());
            assertEquals(1, a.altPortNumber());
        }
    }

    @Test
    void badAlternatePathsAreRefusedAndChangeNothing() {
        try (DualPortRig r = new DualPortRig()) {
            QueuePair a = r.qpA();
            QueuePair b = r.qpB();
            DualPortRig.connect(a, b, 1, DualPortRig.IP_B1, 14, 7);
            IllegalArgumentException samePort = assertThrows(IllegalArgumentException.class,
                    () -> a.modify(new QpAttr().altPath(to(DualPortRig.IP_B2), 1, 14, 0)));
            assertTrue(samePort.getMessage().contains("on the primary port"), samePort.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new QpAttr().altPath(to(DualPortRig.IP_B2), 3, 14, 0));
            assertThrows(IllegalArgumentException.class, () -> new QpAttr().altPath(to(DualPortRig.IP_B2), 2, 32, 0));
            assertThrows(IllegalArgumentException.class,
                    () -> a.modify(new QpAttr().altPath(AddressHandle.ipv6(Gid.ipv6("fd00::1"),
                            SoftNic.GID_INDEX_IPV4), 2, 14, 0)), "GID families differ");
            assertEquals(MIGRATED, a.pathMigState(), "nothing changed");
            assertEquals(0, a.altPortNumber());
            assertEquals(QpState.RTS, a.state());

            QueuePair ud = r.a.createQp(r.pdA, QpType.UD, r.cqA, r.cqA, QpCaps.defaults());
            ud.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(1));
            ud.modify(new QpAttr().state(QpState.RTR));
            assertThrows(IllegalArgumentException.class,
                    () -> ud.modify(new QpAttr().state(QpState.RTS).sqPsn(0).altPath(to(DualPortRig.IP_B2), 2, 14, 0)),
                    "UD has no path migration");
        }
        try (NicPair p = new NicPair(QpType.RC, 1024, FaultProfile.NONE, 1)) {
            IllegalArgumentException onePort = assertThrows(IllegalArgumentException.class,
                    () -> p.qpA.modify(new QpAttr().altPath(AddressHandle.ipv4(NicPair.IP_B), 2, 14, 0)));
            assertTrue(onePort.getMessage().contains("port must be 1 on a"), onePort.getMessage());
        }
    }
}
