package io.rocelab.nic;

import static io.rocelab.nic.MigState.ARMED;
import static io.rocelab.nic.MigState.MIGRATED;
import static io.rocelab.nic.MigState.REARM;

import java.util.EnumMap;
import java.util.Map;

/**
 * The path migration state machine of IBA 17.2.8 (and 9.7.7), as a table: for each state, what
 * each event makes of it. A QP starts MIGRATED; the consumer loads an alternate path and sets REARM;
 * the channel adapter arms (ARMED) on the first packet from the peer with MigReq = 0 (the peer is
 * in REARM or ARMED too: both sides have the alternate path); then a failure, the consumer's request
 * (MIGRATED, in RTS) or a packet with MigReq = 1 on the alternate path migrates. The consumer cannot
 * set ARMED, nor MIGRATED from anything but ARMED. An event with no entry is refused when the
 * consumer asks for it ({@code ibv_modify_qp} fails, EINVAL) and changes nothing when the channel
 * adapter meets it (a failure with no armed alternate path is an ordinary retry exhaustion).
 */
final class PathMigration {
    /** What can happen to a QP's path migration state. */
    enum Event {
        /** The consumer loads an alternate path ({@code IBV_QP_ALT_PATH}). */
        LOAD_ALT,
        /** The consumer sets {@code path_mig_state} to REARM. */
        SET_REARM,
        /** The consumer sets {@code path_mig_state} to ARMED (which IBA leaves to the channel adapter). */
        SET_ARMED,
        /** The consumer asks for a migration ({@code path_mig_state} MIGRATED). */
        SET_MIGRATED,
        /** A packet with MigReq = 0 arrived from the peer on the primary path. */
        MIGREQ_0,
        /** The requester's retries on the primary path ran out (IBA 9.7.7). */
        PATH_FAILED,
        /** A packet with MigReq = 1 arrived on the alternate path (the responder's side). */
        MIGREQ_1_ON_ALT
    }

    /** Where an event leads, and whether the QP moves to its alternate path on the way. */
    record Step(MigState to, boolean migrate) {
    }

    private static final Map<MigState, Map<Event, Step>> TABLE = new EnumMap<>(MigState.class);

    static {
        step(MIGRATED, Event.LOAD_ALT, MIGRATED, false);
        step(MIGRATED, Event.SET_REARM, REARM, false);
        step(REARM, Event.LOAD_ALT, REARM, false);
        step(REARM, Event.MIGREQ_0, ARMED, false);
        step(ARMED, Event.SET_MIGRATED, MIGRATED, true);
        step(ARMED, Event.PATH_FAILED, MIGRATED, true);
        step(ARMED, Event.MIGREQ_1_ON_ALT, MIGRATED, true);
        // not listed: ARMED by the consumer (the channel adapter arms), MIGRATED but from ARMED,
        // REARM but from MIGRATED, a new alternate path while ARMED (load it, then REARM)
        for (MigState s : MigState.values()) {
            TABLE.computeIfAbsent(s, k -> new EnumMap<>(Event.class));
        }
    }

    private PathMigration() {
    }

    /** The step {@code e} takes from {@code from}, or null when the table has none. */
    static Step step(MigState from, Event e) {
        return TABLE.get(from).get(e);
    }

    /** The state a consumer's request {@code e} leads to from {@code from}; refuses what the table does not hold. */
    static Step request(MigState from, Event e) {
        Step s = step(from, e);
        if (s == null) {
            throw new IllegalArgumentException("path migration: " + describe(e) + " is not allowed in " + from
                    + (e == Event.SET_ARMED ? " (the channel adapter arms a QP in REARM on the peer's first packet"
                    + " with MigReq 0; set REARM)" : ""));
        }
        return s;
    }

    private static String describe(Event e) {
        return switch (e) {
            case LOAD_ALT -> "loading an alternate path";
            case SET_REARM -> "pathMigState REARM";
            case SET_ARMED -> "pathMigState ARMED";
            case SET_MIGRATED -> "pathMigState MIGRATED";
            default -> e.name();
        };
    }

    private static void step(MigState from, Event e, MigState to, boolean migrate) {
        TABLE.computeIfAbsent(from, k -> new EnumMap<>(Event.class)).put(e, new Step(to, migrate));
    }
}
