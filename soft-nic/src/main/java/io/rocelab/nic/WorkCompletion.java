package io.rocelab.nic;

/**
 * One completion ({@code struct ibv_wc}). {@code immData} is meaningful when {@link #hasImm()},
 * {@code invalidatedRkey} when {@link #hasInv()}; {@code srcQp} is the sender's QPN on UD receives.
 */
public record WorkCompletion(long wrId, WcStatus status, WcOpcode opcode, int byteLen, int immData,
                             int invalidatedRkey, int qpNum, int srcQp, int flags) {
    /** {@code IBV_WC_GRH}: a UD receive buffer starts with the 40-byte GRH area. */
    public static final int WC_GRH = 1;
    /** {@code IBV_WC_WITH_IMM}. */
    public static final int WC_WITH_IMM = 1 << 1;
    /** {@code IBV_WC_WITH_INV}. */
    public static final int WC_WITH_INV = 1 << 3;

    public boolean hasImm() {
        return (flags & WC_WITH_IMM) != 0;
    }

    public boolean hasInv() {
        return (flags & WC_WITH_INV) != 0;
    }

    public boolean isSuccess() {
        return status == WcStatus.SUCCESS;
    }

    @Override
    public String toString() {
        return "wc{wr_id=" + wrId + ", " + status.verbsName() + ", " + opcode.verbsName() + ", byte_len=" + byteLen
                + (hasImm() ? ", imm=0x" + Integer.toHexString(immData) : "")
                + (hasInv() ? ", inv_rkey=0x" + Integer.toHexString(invalidatedRkey) : "")
                + ", qp=0x" + Integer.toHexString(qpNum) + "}";
    }
}
