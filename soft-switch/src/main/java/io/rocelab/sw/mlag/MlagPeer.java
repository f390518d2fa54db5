package io.rocelab.sw.mlag;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rocelab.codec.header.Ipv4;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.fabric.time.Cancellable;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.sw.config.McLagConfig;
import io.rocelab.sw.config.PortChannelConfig;
import io.rocelab.sw.config.SwitchConfig;
import io.rocelab.sw.forward.FdbTable;
import io.rocelab.sw.forward.PeerLinkRules;
import io.rocelab.sw.lag.LagGroup;
import io.rocelab.sw.lag.PortChannels;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * This switch's half of an MLAG domain (SONiC's {@code MCLAG_DOMAIN}, iccpd and mclagsyncd in
 * one): the shared port channels answer LACP with the domain's one system id (so a dual-homed host
 * bonds one link to each peer into one aggregation), and the two peers keep one view of the hosts:
 *
 * <ul>
 *   <li>MAC learning is synchronized by messages over the peer link ({@link MlagMessage}), not by
 *       learning from frames that crossed it: a MAC the peer learned on a shared port channel is
 *       installed here on the same port channel while it is up here (else via the peer link), any
 *       other of the peer's MACs via the peer link. Each MAC is told once when learned or moved,
 *       and the whole table again every {@value #FULL_SYNC_EVERY} keepalives, which keeps the
 *       peer's copies from ageing;</li>
 *   <li>isolation: a frame that came over the peer link does not leave by a shared port channel
 *       that is up at the peer (the peer delivered it there itself); the peers tell each other
 *       their shared port channels' state every {@code keepalive_interval} and on every change;</li>
 *   <li>a shared port channel going down here moves its MACs to the peer link (the host is still
 *       reached through the peer); when it is back, the peer tells its whole table again, so the
 *       MACs return to it before isolation cuts the way over the peer link; the peer link going down, or {@code session_timeout} without a
 *       message, means the peer is gone: no isolation, its MACs forgotten, this switch serves the
 *       hosts alone.</li>
 * </ul>
 *
 * <p>Owner thread only; time from the switch's scheduler.
 */
public final class MlagPeer implements PeerLinkRules {
    /** Every this many keepalives the whole table is told again. */
    public static final int FULL_SYNC_EVERY = 10;

    private final McLagConfig config;
    private final PortChannels lags;
    private final FdbTable fdb;
    private final Scheduler scheduler;
    private final ByteBufAllocator alloc;
    private final long sourceMac;
    private final Consumer<ByteBuf> sendOnPeerLink;
    private final IntPredicate interfaceUp;
    private final int peerLink;
    private final boolean[] shared;
    private final int[] numberOf;
    private final int[] sharedIfaces;
    private final boolean[] peerUp;
    private final List<MlagMessage.Mac> pending = new ArrayList<>();
    private boolean flushPending;
    private boolean peerAlive;
    private Cancellable session;
    private int keepalives;
    private long messagesRx;
    private long messagesTx;
    private long badRx;
    private long macsFromPeer;

    /**
     * @param sendOnPeerLink sends a frame out of the peer link (takes ownership)
     * @param interfaceUp    whether an interface (a port or a port channel) is up
     */
    public MlagPeer(SwitchConfig switchConfig, PortChannels lags, FdbTable fdb, Scheduler scheduler,
                    ByteBufAllocator alloc, Consumer<ByteBuf> sendOnPeerLink, IntPredicate interfaceUp) {
        this.config = switchConfig.mclag();
        this.lags = lags;
        this.fdb = fdb;
        this.scheduler = scheduler;
        this.alloc = alloc;
        this.sourceMac = switchConfig.routerMac();
        this.sendOnPeerLink = sendOnPeerLink;
        this.interfaceUp = interfaceUp;
        this.peerLink = switchConfig.interfaceIndex(config.peerLink());
        int n = lags.interfaceCount();
        this.shared = new boolean[n];
        this.numberOf = new int[n];
        this.peerUp = new boolean[n];
        List<Integer> ifaces = new ArrayList<>();
        for (String name : config.interfaces()) {
            int i = switchConfig.interfaceIndex(name);
            shared[i] = true;
            numberOf[i] = PortChannelConfig.autoKey(name);
            ifaces.add(i);
        }
        this.sharedIfaces = ifaces.stream().mapToInt(Integer::intValue).toArray();
        scheduler.schedule(config.keepaliveNanos(), this::keepalive);
    }

    public McLagConfig config() {
        return config;
    }

    /** @return the peer link's interface number */
    public int peerLink() {
        return peerLink;
    }

    /** @return whether {@code iface} is a port channel shared with the peer */
    public boolean isShared(int iface) {
        return iface < shared.length && shared[iface];
    }

    /** @return whether the peer is heard (peer link up, a message within {@code session_timeout}) */
    public boolean peerAlive() {
        return peerAlive;
    }

    /** @return whether the peer said its side of shared port channel {@code iface} is up */
    public boolean peerUp(int iface) {
        return peerAlive && peerUp[iface];
    }

    // ---- PeerLinkRules ----

    @Override
    public boolean learnsOn(int iface) {
        return iface != peerLink;
    }

    @Override
    public void learned(long fdbKey, int iface) {
        pending.add(new MlagMessage.Mac(fdbKey, shared[iface] ? numberOf[iface] : 0));
        if (!flushPending) {
            flushPending = true;
            scheduler.execute(this::flushPendingMacs);
        }
    }

    @Override
    public boolean isolated(int in, int out) {
        return in == peerLink && out < shared.length && shared[out] && peerUp(out);
    }

    // ---- events ----

    /** A shared port channel went up or down here: tell the peer; its MACs go via the peer while it is down. */
    public void localInterfaceChanged(int iface, boolean up) {
        if (!up) {
            if (peerAlive) {
                fdb.movePort(iface, peerLink);
            } else {
                fdb.flushPort(iface);
            }
        }
        sendState();
    }

    /** The peer link went up (tell the peer everything) or down (the peer is gone). */
    public void peerLinkChanged(boolean up) {
        if (up) {
            sendState();
            sendAllMacs();
        } else {
            peerGone();
        }
    }

    /**
     * A frame came in on {@code iface}: an MLAG message is taken if it came over the peer link from
     * the configured peer of this domain, else counted as bad.
     */
    public void onMessage(ByteBuf frame, int iface) {
        MlagMessage.Decoded m = iface == peerLink ? MlagMessage.decode(frame) : null;
        if (m == null || m.domainId() != config.domainId() || m.sourceIp() != config.peerIp()) {
            badRx++;
            return;
        }
        messagesRx++;
        boolean wasAlive = peerAlive;
        peerAlive = true;
        if (session != null) {
            session.cancel();
        }
        session = scheduler.schedule(config.sessionTimeoutNanos(), this::sessionTimedOut);
        boolean peerCameUp = false;
        if (m.type() == MlagMessage.TYPE_STATE) {
            for (int k = 0; k < m.portChannels().length; k++) {
                int i = ifaceOfNumber(m.portChannels()[k]);
                if (i >= 0) {
                    peerCameUp |= wasAlive && !peerUp[i] && m.up()[k];
                    peerUp[i] = m.up()[k];
                }
            }
        } else {
            long now = scheduler.nanoTime();
            for (MlagMessage.Mac mac : m.macs()) {
                int i = ifaceOfNumber(mac.portChannel());
                fdb.learn(mac.fdbKey(), i >= 0 && interfaceUp.test(i) ? i : peerLink, now);
                macsFromPeer++;
            }
        }
        if (!wasAlive) {
            sendState();
            sendAllMacs();
        } else if (peerCameUp) {
            // the peer's port channel is back: it must have its hosts' MACs on it again before
            // isolation keeps it from reaching them over the peer link
            sendAllMacs();
        }
    }

    private void sessionTimedOut() {
        session = null;
        peerGone();
        fdb.flushPort(peerLink);
    }

    private void peerGone() {
        peerAlive = false;
        java.util.Arrays.fill(peerUp, false);
    }

    private int ifaceOfNumber(int number) {
        if (number == 0) {
            return -1;
        }
        for (int i : sharedIfaces) {
            if (numberOf[i] == number) {
                return i;
            }
        }
        return -1;
    }

    // ---- sending ----

    private void keepalive() {
        if (interfaceUp.test(peerLink)) {
            sendState();
            if (++keepalives % FULL_SYNC_EVERY == 0) {
                sendAllMacs();
            }
        }
        scheduler.schedule(config.keepaliveNanos(), this::keepalive);
    }

    private void sendState() {
        if (!interfaceUp.test(peerLink)) {
            return;
        }
        int[] numbers = new int[sharedIfaces.length];
        boolean[] up = new boolean[sharedIfaces.length];
        for (int k = 0; k < sharedIfaces.length; k++) {
            numbers[k] = numberOf[sharedIfaces[k]];
            up[k] = interfaceUp.test(sharedIfaces[k]);
        }
        send(MlagMessage.state(alloc, sourceMac, config.domainId(), config.sourceIp(), numbers, up));
    }

    private void sendAllMacs() {
        for (long[] e : fdb.entries(scheduler.nanoTime())) {
            int iface = (int) e[1];
            if (iface != peerLink) {
                pending.add(new MlagMessage.Mac(e[2] << 48 | e[0], shared[iface] ? numberOf[iface] : 0));
            }
        }
        flushPendingMacs();
    }

    private void flushPendingMacs() {
        flushPending = false;
        if (!interfaceUp.test(peerLink)) {
            pending.clear();
            return;
        }
        for (int from = 0; from < pending.size(); from += MlagMessage.MACS_PER_FRAME) {
            List<MlagMessage.Mac> batch = pending.subList(from, Math.min(pending.size(), from + MlagMessage.MACS_PER_FRAME));
            send(MlagMessage.macs(alloc, sourceMac, config.domainId(), config.sourceIp(), new ArrayList<>(batch)));
        }
        pending.clear();
    }

    private void send(ByteBuf frame) {
        messagesTx++;
        sendOnPeerLink.accept(frame);
    }

    /** @return rocelab's MLAG lines for {@code show interfaces portchannel} */
    public String describe(SwitchConfig sw) {
        StringBuilder sb = new StringBuilder(String.format("%nMLAG domain %d: %s, peer %s %s, peer link %s %s, "
                + "LACP system %s%n", config.domainId(), Ipv4.toString(config.sourceIp()),
            Ipv4.toString(config.peerIp()), peerAlive ? "alive" : "not heard", config.peerLink(),
            interfaceUp.test(peerLink) ? "up" : "down", MacAddress.toString(config.systemMac())));
        for (int i : sharedIfaces) {
            LagGroup g = lags.group(i);
            sb.append(String.format("  %-15s  local %s  peer %s%n", sw.interfaceName(i),
                g != null && g.isUp() ? "Up" : "Dw", peerUp(i) ? "Up" : "Dw"));
        }
        sb.append(String.format("  messages rx %d tx %d bad %d, MACs from the peer %d%n", messagesRx, messagesTx,
            badRx, macsFromPeer));
        return sb.toString();
    }
}
