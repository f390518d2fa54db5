package io.rocelab.nic;

/** Send work request opcodes ({@code enum ibv_wr_opcode}); {@link #verbsName()} is rdma-core's name. */
public enum WrOpcode {
    RDMA_WRITE, RDMA_WRITE_WITH_IMM, SEND, SEND_WITH_IMM, RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD,
    LOCAL_INV, SEND_WITH_INV,
    /** IBA Annex A19's ATOMIC WRITE: 8 bytes placed at once ({@code ibv_wr_atomic_write}). */
    ATOMIC_WRITE,
    /** IBA Annex A19's FLUSH: what was placed before becomes globally visible ({@code ibv_wr_flush}). */
    FLUSH;

    public String verbsName() {
        return "IBV_WR_" + name();
    }

    boolean isSend() {
        return this == SEND || this == SEND_WITH_IMM || this == SEND_WITH_INV;
    }

    boolean isWrite() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMM;
    }

    boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /**
     * READ, atomics, ATOMIC WRITE and FLUSH need a response, take a responder resource and count
     * against max_rd_atomic (IBA 9.5, o9-17; Annex A19).
     */
    boolean isReadOrAtomic() {
        return this == RDMA_READ || isAtomic() || isPlacement();
    }

    /** ATOMIC WRITE and FLUSH (IBA Annex A19): answered by a zero-length READ RESPONSE ONLY. */
    boolean isPlacement() {
        return this == ATOMIC_WRITE || this == FLUSH;
    }

    boolean hasImmediate() {
        return this == SEND_WITH_IMM || this == RDMA_WRITE_WITH_IMM;
    }

    /** Whether a QP of this type may post it (IBA 10.7.3 / Table 9.x "operations by service"). */
    boolean allowedOn(QpType type) {
        return switch (type) {
            case RC -> true; // ATOMIC WRITE and FLUSH are RC operations (IBA A19)
            case UC -> isWrite() || this == SEND || this == SEND_WITH_IMM || this == LOCAL_INV;
            case UD -> this == SEND || this == SEND_WITH_IMM;
        };
    }

    WcOpcode completionOpcode() {
        return switch (this) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case SEND, SEND_WITH_IMM, SEND_WITH_INV -> WcOpcode.SEND;
            case RDMA_READ -> WcOpcode.RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> WcOpcode.COMP_SWAP;
            case ATOMIC_FETCH_AND_ADD -> WcOpcode.FETCH_ADD;
            case LOCAL_INV -> WcOpcode.LOCAL_INV;
            case ATOMIC_WRITE -> WcOpcode.ATOMIC_WRITE;
            case FLUSH -> WcOpcode.FLUSH;
        };
    }
}
