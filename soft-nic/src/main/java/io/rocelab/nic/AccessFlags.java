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

    /** All four, for tests and labs that do not care. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;

    private AccessFlags() {
    }

    /** Checks the IBA rule (11.2.8.2) that remote write or atomic access needs local write. */
    static int validate(int access) {
        if ((access & ~ALL) != 0) {
            throw new IllegalArgumentException("access has unknown bits: 0x" + Integer.toHexString(access));
        }
        if ((access & (REMOTE_WRITE | REMOTE_ATOMIC)) != 0 && (access & LOCAL_WRITE) == 0) {
            throw new IllegalArgumentException("access: REMOTE_WRITE/REMOTE_ATOMIC need LOCAL_WRITE (IBA 11.2.8.2)");
        }
        return access;
    }
}
