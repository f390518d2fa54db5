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
 *
 * <p>A region has the type of the kernel's {@code enum ib_mr_type}: {@link Type#USER} from
 * {@link ProtectionDomain#registerMr} ({@code ibv_reg_mr}), {@link Type#MEM_REG} from
 * {@link ProtectionDomain#registerFastMr} (a fast-registration region). Only the latter may be
 * invalidated by a peer's SEND_WITH_INVALIDATE (IBA 10.6.5; rxe's {@code rxe_invalidate_mr}).
 */
public final class MemoryRegion {
    /** The region's type, named as the kernel's {@code enum ib_mr_type}. */
    public enum Type {
        /** Registered with {@code ibv_reg_mr}: its keys live as long as the registration. */
        USER,
        /**
         * A fast-registration region (the kernel's {@code ib_alloc_mr} with {@code IB_MR_TYPE_MEM_REG},
         * mapped and made valid by an {@code IB_WR_REG_MR}; here registered in one call): the kind a
         * ULP hands to a peer for one exchange and the peer invalidates with SEND_WITH_INVALIDATE.
         */
        MEM_REG
    }

    private final ProtectionDomain pd;
    private final Type type;
    private final byte[] memory;
    private final int offset;
    private final long addr;
    private final int length;
    private final int access;
    private final int key;
    private volatile boolean valid = true;

    MemoryRegion(ProtectionDomain pd, Type type, byte[] memory, int offset, int length, long addr, int access,
                 int key) {
        this.pd = pd;
        this.type = type;
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

    public Type type() {
        return type;
    }

    /** Whether a peer's SEND_WITH_INVALIDATE may invalidate it (IBA 10.6.5): fast-registered regions only. */
    boolean remotelyInvalidatable() {
        return type == Type.MEM_REG;
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

    /** Remote access check of IBA C9-87: key valid, same PD, every right asked for granted, inside the bounds. */
    boolean allowsRemote(ProtectionDomain qpPd, int rights, long va, long len) {
        return grants(qpPd, rights) && covers(va, len);
    }

    /** Key valid, same PD, every right in {@code rights} granted (for a request on the whole region). */
    boolean grants(ProtectionDomain qpPd, int rights) {
        return valid && pd == qpPd && (access & rights) == rights;
    }

    @Override
    public String toString() {
        return "mr{" + (type == Type.MEM_REG ? "mem_reg, " : "") + "addr=0x" + Long.toHexString(addr) + ", len="
                + length + ", key=0x" + Integer.toHexString(key)
                + ", access=0x" + Integer.toHexString(access) + (valid ? "" : ", invalid") + "}";
    }
}
