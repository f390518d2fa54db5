package io.rocelab.nic.dcb;

import io.rocelab.codec.lldp.DcbxApp;
import java.util.List;
import java.util.Objects;

/**
 * One NIC port's operational DCB state: the settings it runs with (its own, or with what DCBX took
 * from a not-willing link partner), RoCE's priority from an application priority entry, and which
 * parts came from the peer. What {@code mlnx_qos} and {@code lldptool -t -i IFACE -V PFC} show as
 * operational.
 *
 * @param settings     the settings the data path uses
 * @param rocePriority RoCEv2's priority from the peer's application priority TLV (UDP port 4791), or
 *                     -1 when none was adopted (the port's own VLAN priority, or the DSCP's)
 * @param applications the application priority entries adopted from the peer; empty when none
 * @param pfcFromPeer  the PFC enable vector is the peer's
 * @param etsFromPeer  ETS is the peer's recommendation
 * @param appsFromPeer the application priorities (DSCP map, trust, RoCE's priority) are the peer's
 */
public record PortDcb(DcbSettings settings, int rocePriority, List<DcbxApp> applications, boolean pfcFromPeer,
                      boolean etsFromPeer, boolean appsFromPeer) {
    public PortDcb {
        Objects.requireNonNull(settings, "settings");
        applications = List.copyOf(applications);
        if (rocePriority < -1 || rocePriority > 7) {
            throw new IllegalArgumentException("rocePriority must be -1..7: " + rocePriority);
        }
    }

    /** The port on its own settings. */
    public static PortDcb local(DcbSettings s) {
        return new PortDcb(s, -1, List.of(), false, false, false);
    }

    /** Whether anything of it came from the link partner. */
    public boolean adopted() {
        return pfcFromPeer || etsFromPeer || appsFromPeer;
    }

    /** One line: {@code trust dscp, pfc 0,0,0,1,0,0,0,0, dcbx willing (pfc, ets, app from the peer)}. */
    public String summary() {
        StringBuilder from = new StringBuilder();
        if (pfcFromPeer) {
            from.append("pfc");
        }
        if (etsFromPeer) {
            from.append(from.length() > 0 ? ", " : "").append("ets");
        }
        if (appsFromPeer) {
            from.append(from.length() > 0 ? ", " : "").append("app");
        }
        return settings.summary() + (rocePriority >= 0 ? ", roce priority " + rocePriority : "")
            + (from.length() > 0 ? " (" + from + " from the peer)" : "");
    }
}
