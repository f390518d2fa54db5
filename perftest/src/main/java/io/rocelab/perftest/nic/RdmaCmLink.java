package io.rocelab.perftest.nic;

import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.RecvWr;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.WcOpcode;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.perftest.oob.OobChannel;
import io.rocelab.perftest.oob.OobLink;
import io.rocelab.perftest.oob.OobProtocolException;
import io.rocelab.perftest.oob.OobTrace;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * perftest's exchange over its rdma_cm QP ({@code -R}): every message is one SEND on an RC QP that
 * rdma_cm connected, with one receive posted at a time ({@code rdma_write_data} /
 * {@code rdma_read_data}, {@code tx_depth} and {@code rx_depth} 1). A write waits until the SEND
 * completes (the peer acknowledged it); a read takes the next receive completion and posts the
 * receive again before anything else, so the peer's next message always finds one.
 */
final class RdmaCmLink implements OobLink {
    /** perftest's receive length on this QP: {@code sizeof(struct pingpong_dest)}. */
    static final int MESSAGE_MAX = 56;
    private static final int SEND_OFFSET = 0;
    private static final int RECV_OFFSET = 64;

    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final MemoryRegion mr;
    private final byte[] buffer;
    private final OobChannel.Role role;
    private final Duration timeout;
    private final Waiter waiter = new Waiter();
    private final List<WorkCompletion> wcs = new ArrayList<>(1);
    private OobTrace trace = OobTrace.NONE;

    RdmaCmLink(QueuePair qp, CompletionQueue sendCq, CompletionQueue recvCq, MemoryRegion mr, byte[] buffer,
               OobChannel.Role role, Duration timeout) {
        this.qp = qp;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.mr = mr;
        this.buffer = buffer;
        this.role = role;
        this.timeout = timeout;
    }

    /** Posts the one receive (before the connection is made, as perftest does). */
    static void postReceive(QueuePair qp, MemoryRegion mr) {
        qp.postRecv(new RecvWr(1, Sge.of(mr, RECV_OFFSET, MESSAGE_MAX)));
    }

    static int bufferSize() {
        return RECV_OFFSET + MESSAGE_MAX;
    }

    @Override
    public OobChannel.Role role() {
        return role;
    }

    @Override
    public boolean viaRdmaCm() {
        return true;
    }

    @Override
    public OobLink trace(OobTrace t) {
        this.trace = t;
        return this;
    }

    @Override
    public void write(String what, byte[] bytes) throws IOException {
        if (bytes.length > MESSAGE_MAX) {
            throw new IllegalArgumentException("the " + what + " is " + bytes.length + " bytes; perftest's rdma_cm QP"
                    + " takes at most " + MESSAGE_MAX);
        }
        System.arraycopy(bytes, 0, buffer, SEND_OFFSET, bytes.length);
        qp.postSend(SendWr.send(2, Sge.of(mr, SEND_OFFSET, bytes.length)));
        WorkCompletion wc = await(sendCq, what, "sending");
        if (!wc.isSuccess()) {
            throw new OobProtocolException("the SEND of the " + what + " over the rdma_cm QP completed with "
                    + wc.status().verbsName());
        }
        trace.sent(what, bytes);
    }

    @Override
    public byte[] read(String what, int length) throws IOException {
        WorkCompletion wc = await(recvCq, what, "waiting for");
        if (!wc.isSuccess() || wc.opcode() != WcOpcode.RECV) {
            throw new OobProtocolException("the receive of the " + what + " over the rdma_cm QP completed with "
                    + wc.status().verbsName());
        }
        if (wc.byteLen() != length) {
            throw new OobProtocolException("the peer sent " + wc.byteLen() + " bytes where the " + what + " ("
                    + length + " bytes) was expected");
        }
        byte[] theirs = Arrays.copyOfRange(buffer, RECV_OFFSET, RECV_OFFSET + length);
        postReceive(qp, mr);
        trace.received(what, theirs);
        return theirs;
    }

    private WorkCompletion await(CompletionQueue cq, String what, String doing) throws IOException {
        long deadline = timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        waiter.reset();
        try {
            while (true) {
                wcs.clear();
                if (waiter.poll(cq, 1, wcs) > 0) {
                    return wcs.get(0);
                }
                if (System.nanoTime() >= deadline) {
                    throw new OobProtocolException("timed out " + doing + " the " + what + " on the rdma_cm QP");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted " + doing + " the " + what, e);
        }
    }

    /** Nothing to release here: the connection is the CM's, and the run's teardown disconnects it. */
    @Override
    public void close() {
    }
}
