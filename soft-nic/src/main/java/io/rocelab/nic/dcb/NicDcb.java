package io.rocelab.nic.dcb;

import io.rocelab.codec.lldp.Dcbx;
import io.rocelab.codec.lldp.DcbxApp;
import io.rocelab.codec.lldp.DcbxEts;
import io.rocelab.codec.lldp.DcbxPfc;
import java.util.List;
import java.util.Objects;

/**
 * A NIC's DCB state per port and the two calls its LLDP agent makes: what DCBX content to advertise
 * on a port, and what the link partner advertised. Owner thread only.
 *
 * <p>Every port starts on the NIC's own {@link DcbSettings}. With {@link DcbSettings.DcbxMode#WILLING}
 * (lldpad's and ConnectX's default) a port takes, from a link partner that says it is not willing,
 * what IEEE 802.1Qaz-2011 D.2 lets a willing station take:
 * <ul>
 * <li>the PFC enable vector of its PFC Configuration TLV (D.2.10), when that TLV's willing bit is clear;</li>
 * <li>its ETS Recommendation TLV (D.2.9: priority to traffic class, bandwidth, TSA), when its ETS
 *     Configuration TLV (D.2.8) is not willing (or absent);</li>
 * <li>its application priority table (D.2.11) when it is not willing: a DSCP entry (selector 5)
 *     sets that DSCP's priority and makes the port trust DSCP, as mlx5's {@code
 *     mlx5e_dcbnl_ieee_setapp} does on the first DSCP entry; the UDP port 4791 entry (selector 3
 *     or 4) is RoCEv2's priority, the PCP RoCE frames carry on a VLAN port.</li>
 * </ul>
 * When its partner is gone ({@link #onPeerGone}), a port returns to the NIC's own settings. When
 * both ends are willing the standard lets the lower MAC address keep its own; the NIC is not told
 * its partner's MAC here, so it keeps its own (a soft switch is never willing). With
 * {@link DcbSettings.DcbxMode#OFF} the NIC sends no DCBX TLVs and keeps its own settings.
 */
public final class NicDcb {
    /** Told on the owner thread when a port's operational state changes. */
    @FunctionalInterface
    public interface Listener {
        /**
         * @param port    1 or 2
         * @param state   its new operational state
         * @param adopted whether the change took something from the peer (an adoption)
         */
        void changed(int port, PortDcb state, boolean adopted);
    }

    private final DcbSettings local;
    private final PortDcb[] operational;
    private final Dcbx[] peers;
    private final long[] adoptions;
    private final Listener listener;

    /** A NIC on its defaults, one port, telling nobody: for tests and the codec's users. */
    public NicDcb() {
        this(DcbSettings.DEFAULTS, 1, (p, s, a) -> { });
    }

    /**
     * @param local    the NIC's own settings
     * @param ports    how many ports it has, 1 or 2
     * @param listener told when a port's operational state changes
     */
    public NicDcb(DcbSettings local, int ports, Listener listener) {
        this.local = Objects.requireNonNull(local, "local");
        this.listener = Objects.requireNonNull(listener, "listener");
        if (ports < 1 || ports > 2) {
            throw new IllegalArgumentException("ports must be 1 or 2: " + ports);
        }
        operational = new PortDcb[ports];
        peers = new Dcbx[ports];
        adoptions = new long[ports];
        for (int i = 0; i < ports; i++) {
            operational[i] = PortDcb.local(local);
        }
    }

    /** The NIC's own settings (what it was configured with). */
    public DcbSettings settings() {
        return local;
    }

    /** Port {@code port}'s operational state (1 or 2). */
    public PortDcb operational(int port) {
        return operational[index(port)];
    }

    /** What port {@code port}'s link partner last advertised, or null if it advertised nothing or is gone. */
    public Dcbx peer(int port) {
        return peers[index(port)];
    }

    /** Times port {@code port} took something of its partner's configuration. */
    public long adoptions(int port) {
        return adoptions[index(port)];
    }

    /** Whether port {@code port} acts on a received PFC for {@code priority} (its operational enable vector). */
    public boolean pfcEnabled(int port, int priority) {
        return operational[index(port)].settings().pfcEnabled(priority);
    }

    /** Port {@code port}'s operational PFC enable vector. */
    public int pfcEnable(int port) {
        return operational[index(port)].settings().pfcEnable();
    }

    /**
     * The priority of an untagged IP frame with DSCP {@code dscp} on port {@code port}: the DSCP's
     * priority when the port trusts DSCP; 0 when it trusts PCP, which such a frame does not carry.
     */
    public int priorityOfUntagged(int port, int dscp) {
        DcbSettings s = operational[index(port)].settings();
        return s.trust() == DcbSettings.Trust.DSCP ? s.priorityOfDscp(dscp) : 0;
    }

    /**
     * The DCBX TLVs the NIC's LLDP agent puts in the LLDPDUs of port {@code port} (1 or 2): its willing
     * bit and its operational configuration (ETS Configuration, PFC Configuration, and the
     * application priorities it adopted); {@link Dcbx#NONE} with DCBX off.
     */
    public Dcbx advertised(int port) {
        if (local.dcbx() == DcbSettings.DcbxMode.OFF) {
            return Dcbx.NONE;
        }
        PortDcb op = operational[index(port)];
        boolean willing = local.dcbx() == DcbSettings.DcbxMode.WILLING;
        DcbxEts e = op.settings().ets();
        DcbxEts ets = new DcbxEts(willing, false, 8, e.priorityToTc(), e.tcBandwidth(), e.tsa());
        DcbxPfc pfc = new DcbxPfc(willing, false, 8, op.settings().pfcEnable());
        return new Dcbx(ets, null, pfc, op.applications().isEmpty() ? null : op.applications());
    }

    /** The link partner of port {@code port} advertised {@code peer} (its LLDPDU's DCBX TLVs, maybe {@link Dcbx#NONE}). */
    public void onPeer(int port, Dcbx peer) {
        int i = index(port);
        peers[i] = peer == null || peer.isEmpty() ? null : peer;
        apply(port, resolve(peers[i]));
    }

    /** The link partner of port {@code port} is no longer heard (its LLDP information aged out, or the link went down). */
    public void onPeerGone(int port) {
        peers[index(port)] = null;
        apply(port, PortDcb.local(local));
    }

    private void apply(int port, PortDcb next) {
        int i = index(port);
        if (next.equals(operational[i])) {
            return;
        }
        operational[i] = next;
        if (next.adopted()) {
            adoptions[i]++;
        }
        listener.changed(port, next, next.adopted());
    }

    /** The operational state with {@code peer} as the partner, by 802.1Qaz D.2's rules (see the class comment). */
    private PortDcb resolve(Dcbx peer) {
        if (peer == null || local.dcbx() != DcbSettings.DcbxMode.WILLING) {
            return PortDcb.local(local);
        }
        DcbSettings s = local;
        boolean pfcFromPeer = false;
        boolean etsFromPeer = false;
        boolean appsFromPeer = false;
        int rocePriority = -1;
        List<DcbxApp> apps = List.of();
        if (peer.pfc() != null && !peer.pfc().willing()) {
            s = s.withPfc(peer.pfc().enableMask());
            pfcFromPeer = true;
        }
        boolean etsWilling = peer.etsConfiguration() != null && peer.etsConfiguration().willing();
        if (peer.etsRecommendation() != null && !etsWilling) {
            DcbxEts r = peer.etsRecommendation();
            s = s.withEts(new DcbxEts(false, false, 8, r.priorityToTc(), r.tcBandwidth(), r.tsa()));
            etsFromPeer = true;
        }
        boolean peerWilling = peer.etsConfiguration() != null ? peer.etsConfiguration().willing()
            : peer.pfc() != null && peer.pfc().willing();
        if (peer.applications() != null && !peerWilling && !peer.applications().isEmpty()) {
            int[] map = s.dscpToPriority();
            boolean dscp = false;
            for (DcbxApp a : peer.applications()) {
                if (a.selector() == DcbxApp.SELECTOR_DSCP && a.protocol() < 64) {
                    map[a.protocol()] = a.priority();
                    dscp = true;
                } else if ((a.selector() == DcbxApp.SELECTOR_UDP || a.selector() == DcbxApp.SELECTOR_TCP_UDP)
                        && a.protocol() == DcbxApp.ROCEV2_UDP_PORT) {
                    rocePriority = a.priority();
                }
                // other entries (RoCEv1's Ethertype, iSCSI...) are kept in the operational table only
            }
            if (dscp) {
                s = s.withDscpMap(map).withTrust(DcbSettings.Trust.DSCP);
            }
            apps = peer.applications();
            appsFromPeer = true;
        }
        return new PortDcb(s, rocePriority, apps, pfcFromPeer, etsFromPeer, appsFromPeer);
    }

    private int index(int port) {
        if (port < 1 || port > operational.length) {
            throw new IllegalArgumentException("port must be " + (operational.length == 1 ? "1" : "1.." + operational.length)
                + ": " + port);
        }
        return port - 1;
    }
}
