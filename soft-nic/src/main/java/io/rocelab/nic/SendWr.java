package io.rocelab.nic;

import java.util.Objects;

/**
 * A send work request ({@code struct ibv_send_wr}), built fluently:
 * <pre>{@code
 * SendWr.write(7, Sge.of(local), remoteAddr, rkey).signaled(true)
 * }</pre>
 * The NIC copies what it needs when the request is posted; the object may be reused afterwards.
 */
public final class SendWr {
    /** FLUSH placement types ({@code enum ibv_placement_type}, IBA A19.4.1.1). */
    public static final int FLUSH_GLOBAL = 1;
    public static final int FLUSH_PERSISTENT = 1 << 1;
    /** FLUSH selectivity levels ({@code enum ibv_selectivity_level}, IBA A19.4.1.2). */
    public static final int FLUSH_RANGE = 0;
    public static final int FLUSH_MR = 1;

    long wrId;
    WrOpcode opcode;
    Sge[] sgl = new Sge[0];
    boolean signaled = true;
    boolean solicited;
    boolean inline;
    boolean fence;
    int immData;
    int invalidateRkey;
    long remoteAddr;
    int rkey;
    long compareAdd;
    long swap;
    AddressHandle ah;
    int remoteQpn;
    int remoteQkey;
    /** FLUSH: the range's length, and the FETH (selectivity level and placement type). */
    long flushLength;
    int feth;

    public SendWr(long wrId, WrOpcode opcode) {
        this.wrId = wrId;
        this.opcode = Objects.requireNonNull(opcode, "opcode");
    }

    public static SendWr send(long wrId, Sge... sgl) {
        return new SendWr(wrId, WrOpcode.SEND).sgl(sgl);
    }

    public static SendWr write(long wrId, Sge local, long remoteAddr, int rkey) {
        return new SendWr(wrId, WrOpcode.RDMA_WRITE).sgl(local).remote(remoteAddr, rkey);
    }

    public static SendWr read(long wrId, Sge local, long remoteAddr, int rkey) {
        return new SendWr(wrId, WrOpcode.RDMA_READ).sgl(local).remote(remoteAddr, rkey);
    }

    public static SendWr fetchAdd(long wrId, Sge local8, long remoteAddr, int rkey, long add) {
        SendWr wr = new SendWr(wrId, WrOpcode.ATOMIC_FETCH_AND_ADD).sgl(local8).remote(remoteAddr, rkey);
        wr.compareAdd = add;
        return wr;
    }

    public static SendWr compareSwap(long wrId, Sge local8, long remoteAddr, int rkey, long compare, long swap) {
        SendWr wr = new SendWr(wrId, WrOpcode.ATOMIC_CMP_AND_SWP).sgl(local8).remote(remoteAddr, rkey);
        wr.compareAdd = compare;
        wr.swap = swap;
        return wr;
    }

    /**
     * ATOMIC WRITE ({@code ibv_wr_atomic_write}, IBA Annex A19): the 8 bytes at {@code local8}
     * are placed at once at {@code remoteAddr} (8-byte aligned) of a region with remote write.
     */
    public static SendWr atomicWrite(long wrId, Sge local8, long remoteAddr, int rkey) {
        return new SendWr(wrId, WrOpcode.ATOMIC_WRITE).sgl(local8).remote(remoteAddr, rkey);
    }

    /**
     * FLUSH ({@code ibv_wr_flush}, IBA Annex A19): makes what this QP placed before in
     * [{@code remoteAddr}, +{@code length}) ({@link #FLUSH_RANGE}) or in the whole region
     * ({@link #FLUSH_MR}) globally visible ({@link #FLUSH_GLOBAL}) or persistent
     * ({@link #FLUSH_PERSISTENT}), once it completes.
     */
    public static SendWr flush(long wrId, long remoteAddr, int rkey, long length, int type, int level) {
        if (type == 0 || (type & ~(FLUSH_GLOBAL | FLUSH_PERSISTENT)) != 0) {
            throw new IllegalArgumentException("flush type must be FLUSH_GLOBAL and/or FLUSH_PERSISTENT: " + type);
        }
        if (level != FLUSH_RANGE && level != FLUSH_MR) {
            throw new IllegalArgumentException("flush level must be FLUSH_RANGE or FLUSH_MR: " + level);
        }
        if (length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("flush length must be 0..2^32-1: " + length);
        }
        SendWr wr = new SendWr(wrId, WrOpcode.FLUSH).remote(remoteAddr, rkey);
        wr.flushLength = length;
        wr.feth = level << 4 | type;
        return wr;
    }

    public static SendWr localInvalidate(long wrId, int key) {
        SendWr wr = new SendWr(wrId, WrOpcode.LOCAL_INV);
        wr.invalidateRkey = key;
        return wr;
    }

    public SendWr sgl(Sge... elements) {
        for (Sge s : elements) {
            Objects.requireNonNull(s, "sgl element");
        }
        this.sgl = elements.clone();
        return this;
    }

    public SendWr remote(long addr, int key) {
        this.remoteAddr = addr;
        this.rkey = key;
        return this;
    }

    /** {@code IBV_SEND_SIGNALED}: a completion even when the QP does not signal all WRs. */
    public SendWr signaled(boolean value) {
        this.signaled = value;
        return this;
    }

    /** {@code IBV_SEND_SOLICITED}: sets the BTH SE bit on the last packet. */
    public SendWr solicited(boolean value) {
        this.solicited = value;
        return this;
    }

    /** {@code IBV_SEND_INLINE}: the data is copied at post time, the lkeys are not checked. */
    public SendWr inline(boolean value) {
        this.inline = value;
        return this;
    }

    /** {@code IBV_SEND_FENCE}: waits for earlier READs and atomics to complete (IBA 10.8.3.3). */
    public SendWr fence(boolean value) {
        this.fence = value;
        return this;
    }

    public SendWr imm(int value) {
        this.immData = value;
        return this;
    }

    /** The rkey a SEND_WITH_INV invalidates at the responder. */
    public SendWr invalidate(int key) {
        this.invalidateRkey = key;
        return this;
    }

    /** UD destination: address, QPN and Q_Key (a Q_Key with bit 31 set means "the QP's own", IBA 10.2.5). */
    public SendWr ud(AddressHandle handle, int qpn, int qkey) {
        this.ah = Objects.requireNonNull(handle, "handle");
        this.remoteQpn = qpn;
        this.remoteQkey = qkey;
        return this;
    }

    public long wrId() {
        return wrId;
    }

    public WrOpcode opcode() {
        return opcode;
    }

    long totalLength() {
        long n = 0;
        for (Sge s : sgl) {
            n += s.length();
        }
        return n;
    }
}
