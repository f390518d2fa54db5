package io.rocelab.nic;

/**
 * A QP's path migration state (IBA 17.2.8; verbs' {@code enum ibv_mig_state}). A QP starts in
 * MIGRATED with no alternate path; loading one makes it REARM, the consumer arms it (ARMED), and a
 * migration, asked for or on the primary path's failure, makes the alternate path the primary one
 * and the state MIGRATED again.
 */
public enum MigState {
    /** {@code IBV_MIG_MIGRATED}: no armed alternate path (after a migration, or never armed). */
    MIGRATED,
    /** {@code IBV_MIG_REARM}: an alternate path is loaded but not armed yet. */
    REARM,
    /** {@code IBV_MIG_ARMED}: the alternate path is ready; a failure or a request migrates to it. */
    ARMED
}
