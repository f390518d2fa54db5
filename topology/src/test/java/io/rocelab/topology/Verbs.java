package io.rocelab.topology;

import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AddressHandle;
import io.rocelab.nic.CompletionQueue;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QpAttr;
import io.rocelab.nic.QpCaps;
import io.rocelab.nic.QpState;
import io.rocelab.nic.QpType;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.RecvWr;
import io.rocelab.nic.SendWr;
import io.rocelab.nic.Sge;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.WorkCompletion;
import io.rocelab.topology.fabric.Fabric;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the tests do with the verbs on a fabric's NICs: RC WRITEs and UD SENDs between hosts, each
 * with its own bytes, and a check that every byte arrived where it was sent.
 */
final class Verbs {
    static final int QKEY = 0x1111_1111;
    static final int CQ_DEPTH = 4096;

    /** Per NIC: one PD and one CQ for everything. */
    private final Map<String, ProtectionDomain> pds = new HashMap<>();
    private final Map<String, CompletionQueue> cqs = new HashMap<>();
    private final Fabric fabric;
    private final int trafficClass;
    private final List<WorkCompletion> completions = new ArrayList<>();

    Verbs(Fabric fabric, int trafficClass) {
        this.fabric = fabric;
        this.trafficClass = trafficClass;
    }

    ProtectionDomain pd(String host) {
        return pds.computeIfAbsent(host, h -> fabric.nic(h).allocPd());
    }

    CompletionQueue cq(String host) {
        return cqs.computeIfAbsent(host, h -> fabric.nic(h).createCq(CQ_DEPTH));
    }

    /** One RC WRITE of its own bytes from {@code from} into a region on {@code to}. */
    final class Write {
        final String from;
        final String to;
        final byte[] src;
        final byte[] dst;
        final QueuePair sender;
        final MemoryRegion srcMr;
        final MemoryRegion dstMr;

        Write(String from, String to, int bytes, long seed) {
            this(from, to, bytes, seed, false);
        }

        /** @param ipv6 between the hosts' first global IPv6 addresses (GID index 2) */
        Write(String from, String to, int bytes, long seed, boolean ipv6) {
            this.from = from;
            this.to = to;
            this.src = new byte[bytes];
            new Random(seed).nextBytes(src);
            this.dst = new byte[bytes];
            SoftNic a = fabric.nic(from);
            SoftNic b = fabric.nic(to);
            sender = a.createQp(pd(from), QpType.RC, cq(from), cq(from), QpCaps.defaults());
            QueuePair receiver = b.createQp(pd(to), QpType.RC, cq(to), cq(to), QpCaps.defaults());
            connect(sender, receiver, address(b, ipv6), 0x100, 0x200);
            connect(receiver, sender, address(a, ipv6), 0x200, 0x100);
            srcMr = pd(from).registerMr(src, 0x1000, AccessFlags.ALL);
            dstMr = pd(to).registerMr(dst, 0x8000, AccessFlags.ALL);
        }

        void post(long wrId) {
            sender.postSend(SendWr.write(wrId, Sge.of(srcMr), dstMr.addr(), dstMr.rkey()));
        }

        boolean arrived() {
            return java.util.Arrays.equals(src, dst);
        }

        /** @return the UDP source port of the sender's QP: its ECMP entropy */
        int sourcePort() {
            return sender.udpSourcePort();
        }
    }

    private static AddressHandle address(SoftNic peer, boolean ipv6) {
        return ipv6 ? AddressHandle.ipv6(peer.gid(SoftNic.GID_INDEX_FIRST_IPV6), SoftNic.GID_INDEX_FIRST_IPV6)
            : AddressHandle.ipv4(peer.ipv4());
    }

    private void connect(QueuePair qp, QueuePair peer, AddressHandle to, int rqPsn, int sqPsn) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
        qp.modify(new QpAttr().state(QpState.RTR)
            .av(to.withTrafficClass(trafficClass)).pathMtu(fabric.nic(hostOf(qp)).activeMtu())
            .destQpn(peer.qpn()).rqPsn(rqPsn).maxDestRdAtomic(16).minRnrTimer(12));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(16));
    }

    private String hostOf(QueuePair qp) {
        return qp.pd().nic().name();
    }

    /** A UD QP on every host named, ready to send and receive. */
    final class Ud {
        final Map<String, QueuePair> qps = new HashMap<>();
        final Map<String, List<byte[]>> received = new HashMap<>();
        private final Map<String, byte[]> rxBuffers = new HashMap<>();
        private final Map<String, MemoryRegion> rxMrs = new HashMap<>();
        private final int slot;

        Ud(List<String> hosts, int payload) {
            this.slot = 40 + payload;
            for (String h : hosts) {
                QueuePair qp = fabric.nic(h).createQp(pd(h), QpType.UD, cq(h), cq(h), QpCaps.defaults());
                qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY));
                qp.modify(new QpAttr().state(QpState.RTR));
                qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
                qps.put(h, qp);
                byte[] rx = new byte[slot * hosts.size()];
                rxBuffers.put(h, rx);
                MemoryRegion mr = pd(h).registerMr(rx, 0x10_0000, AccessFlags.ALL);
                rxMrs.put(h, mr);
                for (int i = 0; i < hosts.size(); i++) {
                    qp.postRecv(new RecvWr(i, Sge.of(mr, i * slot, slot)));
                }
                received.put(h, new ArrayList<>());
            }
        }

        void send(String from, String to, byte[] payload, long wrId) {
            MemoryRegion mr = pd(from).registerMr(payload, 0x20_0000 + wrId * 0x1_0000L, AccessFlags.ALL);
            qps.get(from).postSend(SendWr.send(wrId, Sge.of(mr))
                .ud(AddressHandle.ipv4(fabric.nic(to).ipv4()).withTrafficClass(trafficClass), qps.get(to).qpn(), QKEY));
        }

        /** Takes the completions of every host's CQ; receives are kept as their payloads. */
        void poll() {
            for (Map.Entry<String, QueuePair> e : qps.entrySet()) {
                List<WorkCompletion> out = new ArrayList<>();
                cq(e.getKey()).poll(Integer.MAX_VALUE, out);
                for (WorkCompletion wc : out) {
                    completions.add(wc);
                    if (wc.isSuccess() && wc.opcode().name().startsWith("RECV")) {
                        int off = (int) wc.wrId() * slot;
                        received.get(e.getKey()).add(java.util.Arrays.copyOfRange(rxBuffers.get(e.getKey()), off + 40,
                            off + wc.byteLen()));
                    }
                }
            }
        }
    }

    /** Every completion polled so far (UD), or {@link #pollAll} adds the RC ones. */
    List<WorkCompletion> completions() {
        return completions;
    }

    /** Polls every CQ created so far. */
    void pollAll() {
        for (CompletionQueue cq : cqs.values()) {
            cq.poll(Integer.MAX_VALUE, completions);
        }
    }
}
