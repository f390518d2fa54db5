package io.rocelab.nic.cm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.mad.MadHeader;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.RecvWr;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.WcStatus;
import io.rocelab.nic.WorkCompletion;
import java.util.ArrayList;
import java.util.List;

/**
 * QP1 of one port of a NIC and the buffers behind it: sends 256-byte MADs to a peer's QP1 from the
 * port's address and hands each MAD that arrives on the port, with the sender's IPv4 address and
 * the port's number, to a handler. One per port, as Linux's ib_mad opens a MAD agent on each port.
 * Runs on the NIC's owner thread.
 */
final class GsiAgent {
    /** What a MAD is handed to: its bytes (256, a view valid during the call) and who sent it. */
    interface MadHandler {
        void onMad(ByteBuf mad, int senderIpv4, int port);
    }

    /** A UD receive starts with 40 bytes of GRH; on RoCEv2/IPv4 its last 20 are the IPv4 header. */
    private static final int GRH = 40;
    private static final int RECV_SLOT = GRH + MadHeader.MAD_SIZE;
    private static final int RECVS = 64;
    private static final int SENDS = 64;

    private final SoftNic nic;
    private final int port;
    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final byte[] recvBuf = new byte[RECVS * RECV_SLOT];
    private final byte[] sendBuf = new byte[SENDS * MadHeader.MAD_SIZE];
    private final MemoryRegion recvMr;
    private final MemoryRegion sendMr;
    private final List<WorkCompletion> wcs = new ArrayList<>();
    private final MadHandler handler;
    private int nextSendSlot;

    GsiAgent(SoftNic nic, int port, MadHandler handler) {
        this.nic = nic;
        this.port = port;
        this.handler = handler;
        ProtectionDomain pd = nic.allocPd();
        recvMr = pd.registerMr(recvBuf, 0x6000_0000L, AccessFlags.LOCAL_WRITE);
        sendMr = pd.registerMr(sendBuf, 0x7000_0000L, AccessFlags.LOCAL_WRITE);
        sendCq = nic.createCq(SENDS * 2);
        recvCq = nic.createCq(RECVS * 2);
        qp = nic.createGsiQp(port, pd, sendCq, recvCq, new QpCaps(SENDS, RECVS, 1, 1, 0, false));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(port).qkey(MadHeader.GSI_QKEY));
        qp.modify(new QpAttr().state(QpState.RTR));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
    }

    /**
     * Posts QP1's receives and starts handing MADs to the handler, on the NIC's thread from then on.
     * Apart from the constructor: a peer's MAD (a REQ from a client started first) can arrive the
     * moment a receive is posted, and the handler's owner must be complete by then, not half built.
     */
    void start() {
        for (int i = 0; i < RECVS; i++) {
            post(i);
        }
        recvCq.onNotify(() -> nic.agentScheduler().execute(this::drain));
        recvCq.requestNotify(false);
        sendCq.onNotify(() -> nic.agentScheduler().execute(this::reapSends));
        sendCq.requestNotify(false);
    }

    private void post(int slot) {
        qp.postRecv(new RecvWr(slot, Sge.of(recvMr, slot * RECV_SLOT, RECV_SLOT)));
    }

    /** Sends a MAD that {@code writer} fills (256 bytes from index 0) to QP1 at {@code ipv4}, from this port. */
    void send(int ipv4, java.util.function.Consumer<ByteBuf> writer) {
        int slot = nextSendSlot;
        nextSendSlot = (nextSendSlot + 1) % SENDS;
        ByteBuf b = Unpooled.wrappedBuffer(sendBuf, slot * MadHeader.MAD_SIZE, MadHeader.MAD_SIZE);
        b.setZero(0, MadHeader.MAD_SIZE);
        writer.accept(b);
        qp.postSend(SendWr.send(slot, Sge.of(sendMr, slot * MadHeader.MAD_SIZE, MadHeader.MAD_SIZE))
                .ud(AddressHandle.ipv4(ipv4, nic.port(port).ipv4GidIndex(io.rocelab.nic.net.GidType.ROCE_V2)),
                        SoftNic.GSI_QPN, MadHeader.GSI_QKEY));
    }

    private void reapSends() {
        wcs.clear();
        sendCq.poll(SENDS, wcs);
        sendCq.requestNotify(false);
    }

    private void drain() {
        while (true) {
            wcs.clear();
            if (recvCq.poll(16, wcs) == 0) {
                break;
            }
            for (WorkCompletion wc : wcs) {
                int slot = (int) wc.wrId();
                if (wc.isSuccess() && wc.byteLen() >= GRH + MadHeader.MAD_SIZE) {
                    int base = slot * RECV_SLOT;
                    ByteBuf grh = Unpooled.wrappedBuffer(recvBuf, base, GRH);
                    int sender = Ipv4.src(grh, GRH - Ipv4.MIN_LENGTH);
                    handler.onMad(Unpooled.wrappedBuffer(recvBuf, base + GRH, MadHeader.MAD_SIZE), sender, port);
                }
                // every completion gives its slot back, an error too (a SEND longer than a MAD completes
                // with LOC_LEN_ERR, IBA 9.8.3): else a peer could use up QP1's receives for good. Not a
                // flush: the QP is in error, and a receive posted there would be flushed at once.
                if (wc.status() != WcStatus.WR_FLUSH_ERR) {
                    post(slot);
                }
            }
        }
        recvCq.requestNotify(false);
        // a completion that came between the last poll and the request would not fire it
        if (recvCq.size() > 0) {
            nic.agentScheduler().execute(this::drain);
        }
    }

    QueuePair qp() {
        return qp;
    }

    /** The port this QP1 belongs to. */
    int port() {
        return port;
    }
}
