package io.rocelab.nic;

/** A posted receive WR; its SGL is where an incoming SEND lands. */
final class RecvWqe {
    final long wrId;
    final Sge[] sgl;
    final long length;

    RecvWqe(RecvWr wr) {
        this.wrId = wr.wrId();
        this.sgl = wr.sgl();
        this.length = wr.totalLength();
    }
}
