package io.rocelab.nic;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.DecodeError;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Grh;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.Ipv6;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.nic.net.Ecn;
import io.rocelab.nic.net.Icmpv6;
import io.rocelab.nic.stats.NicCounter;

/**
 * The NIC's receive path, rxe_recv.c's role: every frame a port receives is validated here and
 * handed on. In order: the bond's LACPDUs; the parse (a malformed frame is counted,
 * {@link NicCounter#DROP_MALFORMED}); PFC to the port's egress; the VLAN; ARP and neighbour
 * discovery to the port's neighbour tables (a bond's other port learns too: one interface, one
 * table); then RoCEv2 (and RoCEv1, to a port that lists RoCEv1 GIDs) only: the addresses ({@link NicCounter#DROP_NOT_FOR_US}), the ICRC
 * ({@link NicCounter#DROP_BAD_ICRC}), a CNP to its QP's congestion control, the QP by number
 * ({@link NicCounter#DROP_UNKNOWN_QP}), the opcode against the QP's transport
 * ({@link NicCounter#DROP_BAD_OPCODE}), a CE mark to the notification point, and the packet to
 * the QP ({@link QueuePair#receive}: its responder or completer). The frame is released here.
 *
 * <p>Owner thread only; one per NIC, its parse state reused for every frame. An exception while a
 * frame is handled is an internal error: the device goes fatal ({@link SoftNic#deviceFatal}).
 */
final class NicReceive {
    private final SoftNic nic;
    /** The NIC's ports (a bond's two share their neighbours). */
    private final NicPort[] ports;
    /** The NIC's bond, or null. */
    private final Bond bond;
    private final ParsedFrame rxFrame = new ParsedFrame();
    private final RxPacket rxPacket = new RxPacket();
    private final Icrc icrc = new Icrc();

    NicReceive(SoftNic nic, NicPort[] ports, Bond bond) {
        this.nic = nic;
        this.ports = ports;
        this.bond = bond;
    }

    /** A frame {@code port} received (owner thread): parse, check, dispatch; bad frames are counted and dropped. */
    void onFrame(NicPort port, ByteBuf frame) {
        try {
            if (nic.isClosed()) {
                return;
            }
            if (bond != null && bond.takeLacp(port, frame)) {
                return;
            }
            NicLldp lldp = nic.lldp();
            if (lldp != null && lldp.take(port, frame)) {
                return;
            }
            ParsedFrame f = rxFrame;
            DecodeError err = f.parse(frame);
            if (err != null) {
                port.counters.increment(NicCounter.DROP_MALFORMED);
                return;
            }
            if (f.kind() == FrameKind.PFC) {
                port.pfc.onPfc(frame, f);
                return;
            }
            if (f.kind() == FrameKind.PAUSE) {
                // told from PFC by the MAC Control opcode (0x0001, not 0x0101)
                port.pause.onPause(frame, f);
                return;
            }
            if (!port.l2.accepts(f)) {
                port.counters.increment(NicCounter.DROP_VLAN);
                return;
            }
            if (f.kind() == FrameKind.ARP) {
                port.neighbors.onArp(frame, f.l3Offset());
                if (bond != null) {
                    // a bond is one interface with one ARP table: the reply to a request one port sent
                    // may come in by the other
                    for (NicPort other : ports) {
                        if (other != port) {
                            other.neighbors.learnFromArp(frame, f.l3Offset());
                        }
                    }
                }
                return;
            }
            long dst = f.dstMac();
            boolean ourMac = dst == port.mac() || MacAddress.isMulticast(dst);
            if (f.kind() == FrameKind.IPV6 && f.l4Protocol() == Icmpv6.NEXT_HEADER) {
                if (ourMac) {
                    boolean learned = port.nd.onIcmpv6(frame, f.l3Offset(), f.srcMac());
                    if (learned && bond != null) {
                        // one interface, one neighbour cache, as for ARP above
                        for (NicPort other : ports) {
                            if (other != port) {
                                other.nd.learnFromNd(frame, f.l3Offset(), f.srcMac());
                            }
                        }
                    }
                }
                return;
            }
            if (f.kind() != FrameKind.ROCEV2 && f.kind() != FrameKind.ROCEV1) {
                return;
            }
            // RoCEv1 (IBA Annex A16): to one of the port's RoCEv1 GIDs; a port without them (rxe's,
            // RoCEv2 only) takes none, as rxe never sees EtherType 0x8915
            boolean ourIp = f.isRoceV1() ? port.isOwnRoceV1Gid(frame, f.grhOffset() + Grh.DGID)
                    : f.ipVersion() == 4 ? Ipv4.dst(frame, f.l3Offset()) == port.ipv4()
                    : port.nd.isOwn(frame, f.l3Offset() + Ipv6.DST);
            if (!ourMac || !ourIp) {
                port.counters.increment(NicCounter.DROP_NOT_FOR_US);
                return;
            }
            if (!icrc.verify(f)) {
                port.counters.increment(NicCounter.DROP_BAD_ICRC); // IBA C9-?? / A17.4.1: drop silently
                return;
            }
            port.counters.increment(NicCounter.RCVD_PKTS);
            RxPacket p = rxPacket;
            p.load(f);
            QueuePair qp = nic.qp(port, p.destQp);
            if (f.opcode().code() == Opcode.CNP_CODE) {
                onCnp(port, qp);
                return;
            }
            if (qp == null || !qp.state().canReceive() && qp.state() != QpState.ERR) {
                port.counters.increment(NicCounter.DROP_UNKNOWN_QP);
                return;
            }
            if (!f.opcode().isKnown() || f.opcode().transport() != qp.type().transport()) {
                port.counters.increment(NicCounter.DROP_BAD_OPCODE); // C9-?? opcode must match the QP's service
                return;
            }
            if (f.ecn() == Ecn.CE && qp.type() != QpType.UD && isCongestionSignal(f.opcode())) {
                port.counters.increment(NicCounter.NP_ECN_MARKED_ROCE_PACKETS);
                qp.notifyCongestion(nic.scheduler().nanoTime());
            }
            qp.receive(port, p);
        } catch (RuntimeException e) {
            nic.deviceFatal(e);
        } finally {
            frame.release();
        }
    }

    /**
     * A CNP (the reaction point's input): handed to the QP's congestion control if it is an RC or
     * UC QP; a CNP for an unknown QP, or one that has no congestion control (UD), is counted and
     * dropped.
     */
    private void onCnp(NicPort port, QueuePair qp) {
        if (qp == null) {
            port.counters.increment(NicCounter.DROP_UNKNOWN_QP);
            return;
        }
        if (qp.type() == QpType.UD || !qp.state().canReceive()) {
            port.counters.increment(NicCounter.RP_CNP_IGNORED);
            return;
        }
        qp.onCnp(nic.scheduler().nanoTime());
    }

    /**
     * Whether a CE mark on a packet with this opcode is congestion on the data path the CNP should
     * slow: requests and READ responses; not ACKs, whose sender has nothing to slow down.
     */
    private static boolean isCongestionSignal(Opcode op) {
        return op.has(Opcode.REQUEST) || op.has(Opcode.READ);
    }
}
