package io.rocelab.sw.routing;

import io.rocelab.codec.routing.BgpMessage;
import io.rocelab.codec.routing.RoutePrefix;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.BgpConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One eBGP session with a directly connected neighbour (RFC 4271), over one interface: a port or a
 * port channel.
 *
 * <p>States, as FRR names them: Idle, Connect, OpenSent, OpenConfirm, Established (Active is not
 * used: TCP's handshake is not modelled, see {@link io.rocelab.codec.routing.ControlFrame}). From
 * Idle with the link up the session sends its OPEN (Connect, then OpenSent, where it sends it again
 * every second as TCP would retransmit it); an OPEN received in Idle or OpenSent is answered with
 * KEEPALIVE (and our OPEN if not yet sent) and leads to OpenConfirm (there, an OPEN again is answered
 * with ours and a KEEPALIVE: the peer missed them); a KEEPALIVE there to Established. Each side
 * sending OPEN at once stands in for TCP's connection and the collision resolution of section 6.8.
 * The hold time is the smaller of the two OPENs', the keepalive interval the smaller of ours and a
 * third of it (FRR). A session that goes down (hold timer, NOTIFICATION, BFD, the link's carrier with
 * fast-external-failover) drops its Adj-RIB-In and tries again after the connect-retry time
 * ({@code timers connect}), or at once when the peer's OPEN comes.
 *
 * <p>Transport, once Established: what TCP does for BGP, per message: each message is a segment, kept
 * until acknowledged and resent (go-back-N) when not acknowledged within the retransmission timeout
 * (200 ms, Linux's minimum, doubling); the receiver takes segments in order only, acknowledges with
 * its next segment or a pure ACK 40 ms later (delayed ACK), and at once on a duplicate or a gap.
 *
 * <p>Outbound: the Adj-RIB-Out and the changes not yet sent; withdrawals go at once, advertisements
 * no more often than the MRAI ({@code advertisement-interval}), those that wait going in one batch.
 */
public final class BgpSession {
    /** RFC 4271 section 8.2.2 states, FRR's spelling. */
    public enum State { Idle, Connect, OpenSent, OpenConfirm, Established }

    /**
     * Prefixes in one UPDATE at most: five octets each keeps a message under RFC 4271's 4,096 bytes
     * whatever the path.
     */
    static final int MAX_PREFIXES = 700;

    /** Linux's smallest TCP retransmission timeout (TCP_RTO_MIN): 200 ms, doubled on each expiry. */
    static final long RTO_MIN_NANOS = 200_000_000L;
    /** Linux's shortest delayed ACK (TCP_DELACK_MIN, 40 ms): a lone segment is acknowledged this late. */
    static final long DELAYED_ACK_NANOS = 40_000_000L;

    /** A message sent while Established and not yet acknowledged. */
    private record Unacked(long seq, int length, BgpMessage message) {
    }

    /** TCP's initial retransmission timeout (RFC 6298): 1 s. */
    static final long RETRANSMIT_NANOS = 1_000_000_000L;

    final BgpConfig.Neighbor neighbor;
    final int port;
    private final BgpSpeaker speaker;
    private final Scheduler scheduler;
    private final BgpConfig config;
    State state = State.Idle;
    /** The neighbour's MAC, learnt from its frames (no ARP is modelled); -1 until then: broadcast. */
    long peerMac = -1;
    /** TCP: our next sequence number and the peer's. */
    long seq;
    long ack;
    /** Whether {@link #ack} holds the peer's next sequence number (a segment came). */
    boolean ackValid;
    /** Gaps in the peer's sequence numbers while Established: its messages lost on the wire (and resent). */
    long segmentsLost;
    private final java.util.ArrayDeque<Unacked> unacked = new java.util.ArrayDeque<>();
    private Cancellable rtoTimer;
    private long rtoNanos = RTO_MIN_NANOS;
    private Cancellable delayedAck;
    long retransmissions;
    private long negotiatedHoldNanos;
    private long keepaliveNanos;
    private Cancellable holdTimer;
    private Cancellable keepaliveTimer;
    private Cancellable connectRetryTimer;
    private Cancellable retransmitTimer;
    private Cancellable mraiTimer;
    private long lastAdvertisedNanos = Long.MIN_VALUE / 2;
    /** Adj-RIB-In: each prefix's AS_PATH as received. */
    final Map<RoutePrefix, List<Long>> adjRibIn = new HashMap<>();
    /** Adj-RIB-Out: what the neighbour was last told. */
    final Map<RoutePrefix, List<Long>> adjRibOut = new HashMap<>();
    /** Changes not sent yet: a path, or an empty one to withdraw. */
    private final Map<RoutePrefix, List<Long>> pending = new LinkedHashMap<>();
    /** Bumped every time the session goes down: work queued before belongs to a dead session. */
    int generation;
    BfdSession bfd;
    /** The interface's carrier as last told (a port channel reports each member's change). */
    boolean linkSeenUp;
    long msgSent;
    long msgRcvd;
    long updatesSent;
    long updatesRcvd;
    long upDownSinceNanos;
    int established;
    int drops;
    String lastDownReason = "";

    BgpSession(BgpSpeaker speaker, Scheduler scheduler, BgpConfig config, BgpConfig.Neighbor neighbor, int port) {
        this.speaker = speaker;
        this.scheduler = scheduler;
        this.config = config;
        this.neighbor = neighbor;
        this.port = port;
        this.seq = Integer.toUnsignedLong(neighbor.localAddr() * 0x9E3779B9);
    }

    /** Idle with the link up: open the session. */
    void start() {
        if (state != State.Idle || !neighbor.adminUp() || !speaker.linkUp(port)) {
            return;
        }
        cancel(connectRetryTimer);
        connectRetryTimer = null;
        state = State.Connect;
        sendOpen();
        state = State.OpenSent;
        armRetransmit();
    }

    /**
     * The transport's retransmission, which rocelab does not model segment by segment: while the
     * session waits in OpenSent, its OPEN goes again every {@value #RETRANSMIT_NANOS} ns (TCP's
     * initial RTO, RFC 6298), so that an OPEN lost to a peer not yet listening is made good.
     */
    private void armRetransmit() {
        cancel(retransmitTimer);
        retransmitTimer = scheduler.schedule(RETRANSMIT_NANOS, () -> {
            retransmitTimer = null;
            if (state == State.OpenSent && speaker.linkUp(port)) {
                sendOpen();
                armRetransmit();
            }
        });
    }

    private void connectRetryExpired() {
        connectRetryTimer = null;
        if (state == State.Idle) {
            start();
        }
    }

    private void sendOpen() {
        speaker.send(this, new BgpMessage.Open(config.asn(), (int) (config.holdNanos() / 1_000_000_000L),
            config.routerId()));
    }

    /** A message from the neighbour. */
    void receive(BgpMessage m) {
        msgRcvd++;
        if (m instanceof BgpMessage.Open open) {
            onOpen(open);
        } else if (m instanceof BgpMessage.Keepalive) {
            if (state == State.OpenConfirm) {
                established();
            } else if (state == State.Established) {
                restartHoldTimer();
            }
        } else if (m instanceof BgpMessage.Update u) {
            if (state == State.Established) {
                updatesRcvd++;
                restartHoldTimer();
                speaker.received(this, u);
            }
        } else if (m instanceof BgpMessage.Notification n && state != State.Idle) {
            down("received NOTIFICATION " + n.code() + "/" + n.subcode(), false);
        }
    }

    private void onOpen(BgpMessage.Open open) {
        if (state == State.OpenConfirm) {
            // the neighbour did not get our OPEN (it resends its own): ours again, and the KEEPALIVE
            sendOpen();
            speaker.send(this, new BgpMessage.Keepalive());
            return;
        }
        if (state == State.Established) {
            // the neighbour started over (it lost the session while we did not)
            down("peer sent a new OPEN", false);
        }
        if (!neighbor.adminUp() || !speaker.linkUp(port)) {
            return;
        }
        if (open.asn() != neighbor.peerAsn()) {
            speaker.send(this, new BgpMessage.Notification(2, 2)); // OPEN error, bad peer AS
            return;
        }
        if (state == State.Idle) {
            sendOpen();
        }
        cancel(connectRetryTimer);
        cancel(retransmitTimer);
        connectRetryTimer = null;
        retransmitTimer = null;
        long peerHold = open.holdSeconds() * 1_000_000_000L;
        negotiatedHoldNanos = Math.min(config.holdNanos(), peerHold);
        keepaliveNanos = negotiatedHoldNanos == 0 ? 0 : Math.min(config.keepaliveNanos(), negotiatedHoldNanos / 3);
        state = State.OpenConfirm;
        speaker.send(this, new BgpMessage.Keepalive());
        restartHoldTimer();
    }

    private void established() {
        state = State.Established;
        established++;
        upDownSinceNanos = scheduler.nanoTime();
        restartHoldTimer();
        armKeepalive();
        speaker.established(this);
    }

    private void armKeepalive() {
        cancel(keepaliveTimer);
        keepaliveTimer = keepaliveNanos == 0 ? null : scheduler.schedule(keepaliveNanos, () -> {
            keepaliveTimer = null;
            if (state == State.Established || state == State.OpenConfirm) {
                speaker.send(this, new BgpMessage.Keepalive());
                armKeepalive();
            }
        });
    }

    private void restartHoldTimer() {
        cancel(holdTimer);
        holdTimer = negotiatedHoldNanos == 0 ? null : scheduler.schedule(negotiatedHoldNanos, () -> {
            holdTimer = null;
            down("hold timer expired", true);
        });
    }

    /**
     * The session goes down: timers stop, the neighbour is told (a NOTIFICATION, if the link carries
     * it), the speaker forgets what it learnt here, and it starts over after the connect-retry time.
     *
     * @param notify whether to send a NOTIFICATION (hold timer expired, or Cease)
     */
    void down(String why, boolean notify) {
        if (state == State.Idle) {
            return;
        }
        boolean wasEstablished = state == State.Established;
        if (notify && speaker.linkUp(port)) {
            speaker.send(this, why.startsWith("hold")
                ? new BgpMessage.Notification(BgpMessage.HOLD_TIMER_EXPIRED, 0)
                : new BgpMessage.Notification(BgpMessage.CEASE, 0));
        }
        state = State.Idle;
        generation++;
        lastDownReason = why;
        cancel(holdTimer);
        cancel(keepaliveTimer);
        cancel(mraiTimer);
        cancel(connectRetryTimer);
        cancel(retransmitTimer);
        retransmitTimer = null;
        cancel(rtoTimer);
        rtoTimer = null;
        cancel(delayedAck);
        delayedAck = null;
        unacked.clear();
        rtoNanos = RTO_MIN_NANOS;
        holdTimer = null;
        keepaliveTimer = null;
        mraiTimer = null;
        pending.clear();
        adjRibOut.clear();
        lastAdvertisedNanos = Long.MIN_VALUE / 2;
        List<RoutePrefix> lost = new ArrayList<>(adjRibIn.keySet());
        adjRibIn.clear();
        if (wasEstablished) {
            drops++;
            upDownSinceNanos = scheduler.nanoTime();
        }
        speaker.sessionDown(this, lost);
        connectRetryTimer = scheduler.schedule(config.connectRetryNanos(), this::connectRetryExpired);
    }

    // ---- the transport: what TCP would do for BGP's messages once the session is up ----

    /** A message went out at {@code seq}: kept until acknowledged, resent if not in time. */
    void sent(long seq, int length, BgpMessage m) {
        unacked.add(new Unacked(seq, length, m));
        if (rtoTimer == null) {
            armRto();
        }
    }

    /** The neighbour acknowledges every byte before {@code ackNumber}. */
    void acknowledged(long ackNumber) {
        boolean progress = false;
        while (!unacked.isEmpty()) {
            Unacked u = unacked.peek();
            if ((int) (ackNumber - (u.seq + u.length)) < 0) {
                break;
            }
            unacked.poll();
            progress = true;
        }
        if (progress) {
            rtoNanos = RTO_MIN_NANOS;
            cancel(rtoTimer);
            rtoTimer = null;
            if (!unacked.isEmpty()) {
                armRto();
            }
        }
    }

    private void armRto() {
        rtoTimer = scheduler.schedule(rtoNanos, () -> {
            rtoTimer = null;
            if (state != State.Established || unacked.isEmpty()) {
                return;
            }
            // go-back-N: everything not acknowledged, in order, at its own sequence numbers
            for (Unacked u : unacked) {
                retransmissions++;
                speaker.transmit(this, u.message, u.seq);
            }
            rtoNanos = Math.min(rtoNanos * 2, 60_000_000_000L);
            armRto();
        });
    }

    /** New data came in order: acknowledge it with the next segment, or a pure ACK a little later. */
    void dataReceived() {
        if (delayedAck == null && state == State.Established) {
            delayedAck = scheduler.schedule(DELAYED_ACK_NANOS, () -> {
                delayedAck = null;
                if (state == State.Established && speaker.linkUp(port)) {
                    speaker.sendAck(this);
                }
            });
        }
    }

    /** A segment went out: it carries our acknowledgement. */
    void ackSent() {
        cancel(delayedAck);
        delayedAck = null;
    }

    /** The speaker's best path for {@code prefix} changed: what to tell this neighbour. */
    void enqueue(RoutePrefix prefix, List<Long> path) {
        if (state != State.Established) {
            return;
        }
        List<Long> told = adjRibOut.get(prefix);
        if (path.isEmpty() ? told == null : path.equals(told)) {
            pending.remove(prefix);
            return;
        }
        pending.put(prefix, path);
    }

    /** Sends what may go now: withdrawals at once, advertisements when the MRAI allows. */
    void flush() {
        if (state != State.Established || pending.isEmpty()) {
            return;
        }
        List<RoutePrefix> withdrawn = new ArrayList<>();
        Map<List<Long>, List<RoutePrefix>> byPath = new LinkedHashMap<>();
        for (Map.Entry<RoutePrefix, List<Long>> e : pending.entrySet()) {
            if (e.getValue().isEmpty()) {
                withdrawn.add(e.getKey());
            } else {
                byPath.computeIfAbsent(e.getValue(), p -> new ArrayList<>()).add(e.getKey());
            }
        }
        withdrawn.forEach(p -> {
            pending.remove(p);
            adjRibOut.remove(p);
        });
        long now = scheduler.nanoTime();
        boolean mayAdvertise = config.mraiNanos() == 0 || now - lastAdvertisedNanos >= config.mraiNanos();
        for (int i = 0; i < withdrawn.size(); i += MAX_PREFIXES) {
            sendUpdate(new BgpMessage.Update(withdrawn.subList(i, Math.min(withdrawn.size(), i + MAX_PREFIXES)),
                List.of(), 0, List.of()));
        }
        if (byPath.isEmpty()) {
            return;
        }
        if (!mayAdvertise) {
            if (mraiTimer == null) {
                mraiTimer = scheduler.schedule(lastAdvertisedNanos + config.mraiNanos() - now, () -> {
                    mraiTimer = null;
                    flush();
                });
            }
            return;
        }
        lastAdvertisedNanos = now;
        for (Map.Entry<List<Long>, List<RoutePrefix>> e : byPath.entrySet()) {
            e.getValue().forEach(p -> {
                pending.remove(p);
                adjRibOut.put(p, e.getKey());
            });
            List<RoutePrefix> nlri = e.getValue();
            for (int i = 0; i < nlri.size(); i += MAX_PREFIXES) {
                sendUpdate(new BgpMessage.Update(List.of(), e.getKey(), neighbor.localAddr(),
                    nlri.subList(i, Math.min(nlri.size(), i + MAX_PREFIXES))));
            }
        }
    }

    private void sendUpdate(BgpMessage.Update u) {
        updatesSent++;
        speaker.send(this, u);
    }

    private static void cancel(Cancellable c) {
        if (c != null) {
            c.cancel();
        }
    }

    public State state() {
        return state;
    }

    public BgpConfig.Neighbor neighbor() {
        return neighbor;
    }

    /** @return the port the session runs over */
    public int port() {
        return port;
    }

    public long messagesSent() {
        return msgSent;
    }

    public long messagesReceived() {
        return msgRcvd;
    }

    public long updatesSent() {
        return updatesSent;
    }

    public long updatesReceived() {
        return updatesRcvd;
    }

    /**
     * @return gaps found in the neighbour's TCP sequence while Established: messages it sent that did
     *         not arrive in order (dropped here, resent by the neighbour)
     */
    public long segmentsLost() {
        return segmentsLost;
    }

    /** @return segments sent again because the neighbour had not acknowledged them in time */
    public long retransmissions() {
        return retransmissions;
    }

    /** @return prefixes in the Adj-RIB-In */
    public int prefixesReceived() {
        return adjRibIn.size();
    }

    /** @return when the session last came up or went down (FRR's Up/Down column) */
    public long upDownSinceNanos() {
        return upDownSinceNanos;
    }

    /** @return how often it left Established */
    public int drops() {
        return drops;
    }

    /** @return how often it reached Established */
    public int timesEstablished() {
        return established;
    }

    public String lastDownReason() {
        return lastDownReason;
    }

    /** @return when an UPDATE that advertised last went to the neighbour (the MRAI counts from it) */
    public long lastAdvertisedNanos() {
        return lastAdvertisedNanos;
    }

    /** @return its BFD session, or null */
    public BfdSession bfd() {
        return bfd;
    }

    /** @return the hold time agreed with the neighbour */
    public long holdNanos() {
        return negotiatedHoldNanos;
    }
}
