package io.rocelab.nic;

import io.netty.buffer.Unpooled;
import io.rocelab.codec.RoceFrame;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.nic.net.Gid;
import java.util.List;
import java.util.Objects;

/**
 * One soft NIC in virtual time with one RC or UC QP connected to a peer that exists only as the
 * frames a test writes: well-formed RoCEv2 frames with the peer's addresses, QPN and a valid ICRC,
 * as a peer (or an attacker on the same Ethernet, who can compute ICRCs as well) would send them.
 * What the NIC sends is kept, decoded, for assertions.
 */
final class ScriptedPeer implements AutoCloseable {
    static final int NIC_IP = Ipv4.parse("10.77.0.11");
    static final int PEER_IP = Ipv4.parse("10.77.0.10");
    static final long NIC_MAC = MacAddress.parse("52:54:00:77:00:01");
    static final long PEER_MAC = MacAddress.parse("52:54:00:77:00:00");
    static final int PEER_QPN = 0x99;
    /** The NIC's first send PSN (close to the wrap, so PSN arithmetic is exercised). */
    static final int SQ_PSN = 0xFFFFF8;
    /** The PSN the NIC's responder expects first. */
    static final int RQ_PSN = 0x000200;
    static final int MTU = 1024;
    /** The IPv6 variant's addresses: the NIC has two global ones, the QP uses the first. */
    static final String NIC_IPV6 = "2001:db8::11";
    static final String NIC_OTHER_IPV6 = "2001:db8::12";
    static final Gid NIC_GID = Gid.ipv6(NIC_IPV6);
    static final Gid NIC_OTHER_GID = Gid.ipv6(NIC_OTHER_IPV6);
    static final Gid PEER_GID = Gid.ipv6("2001:db8::10");

    final VirtualTimeScheduler sched = new VirtualTimeScheduler();
    final RxeReplayTest.ScriptedPort port = new RxeReplayTest.ScriptedPort();
    final SoftNic nic;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair qp;
    final QpType type;
    private final boolean ipv6;
    private final int qpAccess;
    private int sentSeen;

    /** RC with timeout 14 (67 ms), retry 7, rnr_retry 7, min_rnr_timer 12, max_rd_atomic 16; over IPv4. */
    ScriptedPeer(QpType type) {
        this(type, false);
    }

    /** The same over IPv6 ({@link #NIC_GID} to {@link #PEER_GID}) if {@code ipv6}. */
    ScriptedPeer(QpType type, boolean ipv6) {
        this(type, ipv6, AccessFlags.ALL);
    }

    /** Over IPv4, the QP granting the remote rights {@code qpAccess} ({@code qp_access_flags}). */
    ScriptedPeer(QpType type, int qpAccess) {
        this(type, false, qpAccess);
    }

    private ScriptedPeer(QpType type, boolean ipv6, int qpAccess) {
        this.type = type;
        this.ipv6 = ipv6;
        this.qpAccess = qpAccess;
        SoftNic.Builder b = SoftNic.builder().name("nic").mac(NIC_MAC).ipv4(NIC_IP).activeMtu(4096).scheduler(sched)
                .port(port);
        if (ipv6) {
            b.ipv6(NIC_IPV6).ipv6(NIC_OTHER_IPV6);
        }
        nic = b.build();
        nic.addNeighbor(PEER_IP, PEER_MAC);
        nic.addNeighbor(PEER_GID, PEER_MAC);
        pd = nic.allocPd();
        cq = nic.createCq(4096);
        qp = nic.createQp(pd, type, cq, cq, QpCaps.defaults());
        connect(RQ_PSN);
    }

    /** From RESET (or a new QP) to RTS, the responder expecting {@code rqPsn} first. */
    void connect(int rqPsn) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(qpAccess));
        AddressHandle av = ipv6 ? AddressHandle.ipv6(PEER_GID, nic.gidIndex(NIC_GID)) : AddressHandle.ipv4(PEER_IP);
        QpAttr rtr = new QpAttr().state(QpState.RTR).av(av).pathMtu(MTU).destQpn(PEER_QPN).rqPsn(rqPsn);
        if (type == QpType.RC) {
            rtr.maxDestRdAtomic(16).minRnrTimer(12);
        }
        qp.modify(rtr);
        QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(SQ_PSN);
        if (type == QpType.RC) {
            rts.timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16);
        }
        qp.modify(rts);
    }

    /** A frame from the peer to the QP: addresses, UDP ports and destination QPN filled in. */
    RoceFrame frame(Opcode op, int psn) {
        RoceFrame f = new RoceFrame().ethernet(NIC_MAC, PEER_MAC);
        if (ipv6) {
            f.ipv6(PEER_GID.toBytes(), NIC_GID.toBytes());
        } else {
            f.ipv4(PEER_IP, NIC_IP);
        }
        return f.udp(0xC000 | PEER_QPN, 4791).opcode(op).destQp(qp.qpn()).psn(psn);
    }

    /** An ACK (or NAK, by its syndrome) from the peer for {@code psn}. */
    RoceFrame ack(int psn, int syndrome, int msn) {
        return frame(Opcode.RC_ACKNOWLEDGE, psn).aeth(syndrome, msn);
    }

    /**
     * Delivers {@code f} to the NIC as its port receives frames, then runs what is due now. What
     * was due before (the commands of verbs called just before, such as a postRecv) runs first.
     */
    void inject(RoceFrame f) {
        sched.runUntil(sched.nanoTime());
        port.receiver.onFrame(port, f.encode(Unpooled.buffer().alloc()));
        sched.runUntil(sched.nanoTime());
    }

    /** Runs virtual time for {@code nanos}. */
    void run(long nanos) {
        sched.runFor(nanos);
    }

    /** Every RoCE frame the NIC has sent, decoded. */
    List<WireTap.Seen> sent() {
        return port.sent.stream().map(b -> WireTap.decode("nic", b)).filter(Objects::nonNull).toList();
    }

    /** The RoCE frames the NIC has sent since the last call. */
    List<WireTap.Seen> newlySent() {
        List<WireTap.Seen> all = sent();
        List<WireTap.Seen> fresh = all.subList(sentSeen, all.size());
        sentSeen = all.size();
        return List.copyOf(fresh);
    }

    /** {@code n} bytes that differ from one {@code seed} to another. */
    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    /** The NIC's own send PSN, as the requester will use it next. */
    int sendPsn() {
        return qp.sendPsn();
    }

    @Override
    public void close() {
        nic.close();
        sched.runFor(10_000_000_000L);
    }
}
