package io.rocelab.nic;

/**
 * A registered memory region: a byte array seen by the NIC at virtual addresses
 * [{@link #addr()}, addr + length), with access rights and keys (IBA 10.6). Remote access is
 * checked against the rkey, the PD, the rights and the bounds before a single byte moves
 * (IBA 9.7.4.1.3, C9-87), so a bad request cannot touch anything outside the region.
 *
 * <p>Like real registered memory, the bytes are shared between the application and the NIC:
 * the application must not touch them while a work request that uses them is outstanding.
 * Atomics see 64-bit words in little-endian order, as the x86 hosts rxe runs on.
 */
public final class MemoryRegion {
    private final ProtectionDomain pd;
    private final byte[] memory;
    private final int offset;
    private final long addr;
    private final int length;
    private final int access;
    private final int key;
    private volatile boolean valid = true;

    MemoryRegion(ProtectionDomain pd, byte[] memory, int offset, int length, long addr, int access, int key) {
        this.pd = pd;
        this.memory = memory;
        this.offset = offset;
        this.length = length;
        this.addr = addr;
        this.access = access;
        this.key = key;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    /** The backing array (shared with the NIC). */
    public byte[] buffer() {
        return memory;
    }

    /** Index in {@link #buffer()} of the byte at {@link #addr()}. */
    public int bufferOffset() {
        return offset;
    }

    public long addr() {
        return addr;
    }

    public int length() {
        return length;
    }

    public int access() {
        return access;
    }

    public int lkey() {
        return key;
    }

    /** The rkey; as in rxe it equals the lkey, and it is only honoured for the rights in {@link #access()}. */
    public int rkey() {
        return key;
    }

    /** False after LOCAL_INV, SEND_WITH_INV or deregistration (IBA 10.6.5). */
    public boolean isValid() {
        return valid;
    }

    void invalidate() {
        valid = false;
    }

    /** Whether [va, va+len) lies inside the region (wrap-safe). */
    boolean covers(long va, long len) {
        return len >= 0 && va >= addr && len <= length && va - addr <= length - len;
    }

    /** Array index of virtual address {@code va} (which {@link #covers} checked). */
    int index(long va) {
        return offset + (int) (va - addr);
    }

    /** Remote access check of IBA C9-87: key valid, same PD, right granted, inside the bounds. */
    boolean allowsRemote(ProtectionDomain qpPd, int right, long va, long len) {
        return valid && pd == qpPd && (access & right) != 0 && covers(va, len);
    }

    @Override
    public String toString() {
        return "mr{addr=0x" + Long.toHexString(addr) + ", len=" + length + ", key=0x" + Integer.toHexString(key)
                + ", access=0x" + Integer.toHexString(access) + (valid ? "" : ", invalid") + "}";
    }
}
