package io.rocelab.nic;

/** Completion opcodes ({@code enum ibv_wc_opcode}); {@link #verbsName()} is rdma-core's name. */
public enum WcOpcode {
    SEND, RDMA_WRITE, RDMA_READ, COMP_SWAP, FETCH_ADD, LOCAL_INV, FLUSH, ATOMIC_WRITE, RECV, RECV_RDMA_WITH_IMM;

    public String verbsName() {
        return "IBV_WC_" + name();
    }
}
