/**
 * rocelab's soft NIC: a verbs-style API (PD, MR, CQ, SRQ, QP; post send/receive, poll, notify,
 * asynchronous events) over a RoCEv2 transport, IPv4 or IPv6, optionally on an 802.1Q VLAN, that
 * puts on the wire the frames Linux rxe puts there.
 *
 * <pre>{@code
 * SoftNic nic = SoftNic.builder().mac("52:54:00:77:00:01").ipv4("10.77.0.11")
 *     .scheduler(scheduler).port(port).build();
 * ProtectionDomain pd = nic.allocPd();
 * CompletionQueue cq = nic.createCq(256);
 * QueuePair qp = nic.createQp(pd, QpType.RC, cq, cq, QpCaps.defaults());
 * MemoryRegion mr = pd.registerMr(buffer, 0x10000, AccessFlags.LOCAL_WRITE);
 * qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
 * qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(peerIp)).pathMtu(1024)
 *     .destQpn(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(12));
 * qp.modify(new QpAttr().state(QpState.RTS).sqPsn(myPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
 * qp.postSend(SendWr.write(1, Sge.of(mr), remoteAddr, rkey));
 * WorkCompletion wc = cq.poll();   // IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE ...
 * }</pre>
 *
 * <p>Over IPv6 the AV names an IPv6 GID and a source GID index of the same family:
 * {@code AddressHandle.ipv6(peerGid, SoftNic.GID_INDEX_FIRST_IPV6)} (or index 0, the link-local
 * GID); peers are found by neighbour discovery as ARP finds IPv4 ones. Receives may come from a
 * {@link io.rocelab.nic.SharedReceiveQueue}; events such as {@code IBV_EVENT_SQ_DRAINED},
 * {@code IBV_EVENT_SRQ_LIMIT_REACHED} or {@code IBV_EVENT_CQ_ERR} come from
 * {@link io.rocelab.nic.SoftNic#pollAsyncEvent()}. A region a peer may invalidate with
 * SEND_WITH_INVALIDATE is registered with {@code pd.registerFastMr}; IBA 1.5's ATOMIC WRITE and
 * FLUSH are posted with {@code SendWr.atomicWrite} and {@code SendWr.flush} and need
 * {@code AccessFlags.REMOTE_WRITE} / {@code AccessFlags.FLUSH_GLOBAL} on the peer's QP and region.
 *
 * <p>Inside, a QP's transport is split as in rxe: {@code Requester}, {@code Responder} and
 * {@code Completer}, the last two explicit state machines; modify-QP is checked against the IBA
 * transition table in {@code QpTransitions}; received frames are checked and dispatched by
 * {@code NicReceive} (rxe_recv.c). The subpackages sit below this one and never reach back
 * ({@code PackageCyclesTest}): {@code egress} (the transmit side), {@code net} (GIDs, ARP,
 * neighbour discovery, L2 framing), {@code cc} (congestion control), {@code stats} (the
 * counters); {@code cm}, the connection manager, sits above and uses the verbs.
 */
package io.rocelab.nic;
