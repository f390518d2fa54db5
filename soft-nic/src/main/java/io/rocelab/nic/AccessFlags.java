package io.rocelab.nic;

/**
 * Memory and QP access flags with the values of rdma-core's {@code enum ibv_access_flags}, so that
 * numbers from a verbs program mean the same here.
 */
public final class AccessFlags {
    public static final int LOCAL_WRITE = 1;
    public static final int REMOTE_WRITE = 1 << 1;
    public static final int REMOTE_READ = 1 << 2;
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** A peer may FLUSH to global visibility (IBA Annex A19; {@code IBV_ACCESS_FLUSH_GLOBAL}). */
    public static final int FLUSH_GLOBAL = 1 << 8;
    /**
     * A peer may FLUSH to persistence ({@code IBV_ACCESS_FLUSH_PERSISTENT}): a QP flag only, see
     * {@link #validateRegion}.
     */
    public static final int FLUSH_PERSISTENT = 1 << 9;

    /** All four classic rights, for tests and labs that do not care. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;
    private static final int KNOWN = ALL | FLUSH_GLOBAL | FLUSH_PERSISTENT;

    private AccessFlags() {
    }

    /** Checks the IBA rule (11.2.8.2) that remote write or atomic access needs local write. */
    static int validate(int access) {
        if ((access & ~KNOWN) != 0) {
            throw new IllegalArgumentException("access has unknown bits: 0x" + Integer.toHexString(access));
        }
        if ((access & (REMOTE_WRITE | REMOTE_ATOMIC)) != 0 && (access & LOCAL_WRITE) == 0) {
            throw new IllegalArgumentException("access: REMOTE_WRITE/REMOTE_ATOMIC need LOCAL_WRITE (IBA 11.2.8.2)");
        }
        return access;
    }

    /**
     * {@link #validate} for a memory region, which cannot take {@link #FLUSH_PERSISTENT}: a soft
     * NIC's regions are ordinary memory, and rxe refuses persistent access to memory that is not
     * persistent memory.
     */
    static int validateRegion(int access) {
        validate(access);
        if ((access & FLUSH_PERSISTENT) != 0) {
            throw new IllegalArgumentException(
                    "access: FLUSH_PERSISTENT needs persistent memory, and a soft NIC's regions are ordinary memory");
        }
        return access;
    }
}
