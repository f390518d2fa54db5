package io.rocelab.nic;

/** A protection domain (IBA 10.2.3): MRs and QPs of one PD only work together. */
public final class ProtectionDomain {
    private final SoftNic nic;
    private final int handle;

    ProtectionDomain(SoftNic nic, int handle) {
        this.nic = nic;
        this.handle = handle;
    }

    public SoftNic nic() {
        return nic;
    }

    public int handle() {
        return handle;
    }

    /** Registers all of {@code memory} at virtual address {@code addr} ({@code ibv_reg_mr}). */
    public MemoryRegion registerMr(byte[] memory, long addr, int access) {
        return registerMr(memory, 0, memory.length, addr, access);
    }

    /** Registers {@code length} bytes of {@code memory} from {@code offset}, seen at {@code addr}. */
    public MemoryRegion registerMr(byte[] memory, int offset, int length, long addr, int access) {
        return nic.registerMr(this, MemoryRegion.Type.USER, memory, offset, length, addr, access);
    }

    /**
     * Registers all of {@code memory} at {@code addr} as a fast-registration region
     * ({@link MemoryRegion.Type#MEM_REG}: the kernel's {@code ib_alloc_mr} and {@code IB_WR_REG_MR}
     * in one call), the only kind a peer may invalidate with SEND_WITH_INVALIDATE (IBA 10.6.5).
     * Once invalidated it stays so: register a new one for the next exchange.
     */
    public MemoryRegion registerFastMr(byte[] memory, long addr, int access) {
        return nic.registerMr(this, MemoryRegion.Type.MEM_REG, memory, 0, memory.length, addr, access);
    }

    /** Deregisters: the keys stop working at once ({@code ibv_dereg_mr}). */
    public void deregisterMr(MemoryRegion mr) {
        nic.deregisterMr(mr);
    }

    @Override
    public String toString() {
        return "pd" + handle;
    }
}
