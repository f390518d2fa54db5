package io.rocelab.nic;

/**
 * A posted send WR as the requester and completer track it: the WR's fields copied at post time
 * (so the user may reuse the {@link SendWr}), plus the transport state of IBA 9.7's requester:
 * its PSN range, how far it has been sent, how far its READ response has arrived.
 *
 * <p>It is also the command that carries it to the NIC's thread ({@link #run()} posts it), so
 * posting one WR allocates the WQE and nothing else.
 */
final class SendWqe implements Runnable {
    private final Requester requester;
    final long wrId;
    final WrOpcode opcode;
    final Sge[] sgl;
    final byte[] inlineData;
    final boolean signaled;
    final boolean solicited;
    final boolean fence;
    final int imm;
    final int invRkey;
    final long remoteAddr;
    final int rkey;
    final long compareAdd;
    final long swap;
    final AddressHandle ah;
    /** UD: where this WR's datagram goes, resolved at post time. */
    final Route route;
    final int remoteQpn;
    final int remoteQkey;
    final int length;
    final long flushLength;
    final int feth;

    boolean started;
    int firstPsn;
    int lastPsn;
    int npkts;
    /** Bytes of the message sent so far (of the request for READ: 0 or all). */
    int offset;
    boolean done;
    WcStatus status = WcStatus.SUCCESS;
    /**
     * The region of a one-SGE list once the whole check passed (key, PD, rights, bounds): those never
     * change for a region, so a later packet of the message only asks whether it is still valid
     * (not deregistered or invalidated since), as the whole check would find.
     */
    MemoryRegion checkedRegion;

    SendWqe(Requester requester, SendWr wr, byte[] inlineData, int length, Route route) {
        this.requester = requester;
        this.route = route;
        this.wrId = wr.wrId;
        this.opcode = wr.opcode;
        this.sgl = wr.sgl.clone();
        this.inlineData = inlineData;
        this.signaled = wr.signaled;
        this.solicited = wr.solicited;
        this.fence = wr.fence;
        this.imm = wr.immData;
        this.invRkey = wr.invalidateRkey;
        this.remoteAddr = wr.remoteAddr;
        this.rkey = wr.rkey;
        this.compareAdd = wr.compareAdd;
        this.swap = wr.swap;
        this.ah = wr.ah;
        this.remoteQpn = wr.remoteQpn;
        this.remoteQkey = wr.remoteQkey;
        this.length = length;
        this.flushLength = wr.flushLength;
        this.feth = wr.feth;
    }

    /** On the NIC's thread: hands this WQE to its QP's requester. */
    @Override
    public void run() {
        requester.post(this);
    }

    /** Whether {@code psn} is one of this WQE's (request or response) PSNs. */
    boolean holds(int psn) {
        return started && !io.rocelab.codec.ib.Psn.before(psn, firstPsn) && !io.rocelab.codec.ib.Psn.after(psn, lastPsn);
    }

    @Override
    public String toString() {
        return opcode + "#" + wrId + "[" + firstPsn + ".." + lastPsn + " off=" + offset + (done ? " done" : "") + "]";
    }
}
