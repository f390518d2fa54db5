package io.rocelab.nic;

/**
 * Flags a QP is created with, as rdma-core's mlx5 direct verbs take them in
 * {@code mlx5dv_qp_init_attr.create_flags} ({@code mlx5dv_create_qp(3)}). rocelab has the one that
 * changes its transport: {@link #OOO_DP}.
 */
public enum QpCreateFlag {
    /**
     * {@code MLX5DV_QP_CREATE_OOO_DP}, out-of-order data placement (RC only): the responder takes a
     * request packet ahead of the expected PSN, within its reorder window, instead of answering it
     * with a PSN sequence error NAK, and places it by its offset in its message; ACKs stay
     * cumulative and a message completes once all its packets came (docs/design.md, "Out-of-order
     * receive"). What ConnectX NICs do behind adaptive-routing switches that spray a flow's packets
     * over every path (perftest turns it on where the device offers it, {@code
     * MLX5DV_CONTEXT_MASK_OOO_RECV_WRS}, and prints "Using Enhanced Reorder"). Without it a QP
     * behaves as Linux rxe: a packet ahead is a sequence error and the requester goes back N.
     * {@link SoftNic.Builder#oooDataPlacement} makes it the default of a NIC's new RC QPs.
     */
    OOO_DP
}
