package io.rocelab.perftest.nic;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.FlowControlMode;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.nic.dcb.DcbSettings;
import io.rocelab.nic.cc.NoCongestionControl;
import io.rocelab.perftest.cli.OptionException;
import java.util.List;
import java.util.Objects;

/**
 * rocelab's congestion flags of the tools: the NIC's congestion control for the tool's QPs
 * ({@code --cc dcqcn|none}), its DCQCN parameters under mlx5's {@code cc_params} names
 * ({@code --cc-param NAME=VALUE}), and a PFC storm the NIC sends ({@code --pfc-storm PRIO}: the
 * rogue host of a PFC storm, whose NIC pauses its link partner's priority without end).
 *
 * <p>The notification point (CNPs for CE-marked packets, {@code np_*}) works whatever {@code --cc}
 * says, as mlx5's does; the reaction point ({@code rp_*}) is DCQCN's, so its parameters need
 * {@code --cc dcqcn}. How long the NIC takes to act on a PFC pause its partner sends
 * ({@code --pause-response}) is with them: IEEE 802.3 31B.3.7's bound for the link speed unless
 * given. So are the NIC's DCB settings, as {@code mlnx_qos} sets them ({@code --trust},
 * {@code --pfc}, {@code --dcbx}).
 *
 * @param dcqcn            DCQCN sets each RC/UC QP's rate and the QPs' packets are ECN-capable
 * @param params           the DCQCN parameters (defaults unless {@code --cc-param} changed them)
 * @param pfcStormPriority the priority the NIC pauses without end, or -1 for no storm
 * @param pauseResponse    how long the NIC takes to act on a received PFC XOFF
 * @param flowControl      PFC, or 802.3x PAUSE for the whole port ({@code --pause on})
 * @param dcb              the NIC's DCB settings (trust, PFC enable vector, DCBX mode)
 */
public record NicCongestion(boolean dcqcn, DcqcnParams params, int pfcStormPriority, PauseResponse pauseResponse,
                            FlowControlMode flowControl, DcbSettings dcb) {
    /** The default: no congestion control, DCQCN's default notification point, no storm, the standard's response. */
    public static final NicCongestion NONE = new NicCongestion(false, DcqcnParams.defaults(), -1, PauseResponse.IEEE);

    /** The help lines of the flags, under the tool's usage. */
    static final List<String> USAGE = List.of(
            "rocelab congestion:",
            "  --cc dcqcn|none               the NIC's congestion control for the tool's QPs (default none): dcqcn"
                    + " makes their packets ECN-capable (ECT(0)) and cuts and recovers each QP's rate on CNPs",
            "  --cc-param NAME=VALUE         a DCQCN parameter under mlx5's cc_params name, e.g. rp_ai_rate=10"
                    + " (again for more); rp_* need --cc dcqcn, np_* (the CNPs this NIC sends) work with either",
            "  --pfc-storm PRIO              the NIC sends PFC pause frames for priority 0..7 without end (a rogue"
                    + " host's PFC storm), each refreshing the last before it runs out: its link partner holds its"
                    + " frames of that priority (the tools' traffic is on 0; on a busy machine a late refresh lets a"
                    + " few through); with --in-process the server's NIC storms",
            "  --pause-response ieee|394q|2us|0  how long the NIC goes on sending a priority after a PFC pause for it"
                    + " arrives (default ieee: IEEE 802.3 31B.3.7's bound for the link speed, 394 quanta of 512 bit"
                    + " times, 2.018 us, at 100 Gb/s); quanta, a time (ns, us, ms) or 0 (stop after the frame on the"
                    + " wire)",
            "  --pause on|off                802.3x link-level PAUSE instead of PFC, rx and tx, as ethtool --pause"
                    + " DEV rx on tx on (default off: PFC): a PAUSE from the partner stops the whole port for its time;"
                    + " mlx5's rx_pause_ctrl_phy, tx_pause_ctrl_phy; not with --pfc-storm or --pfc (a port runs PFC or PAUSE)",
            "  --trust dscp|pcp              which header gives a frame its priority (mlnx_qos --trust; default dscp:"
                    + " an untagged RoCE frame is at its DSCP's priority, DSCP / 8, DSCP 26 at 3); pcp: an untagged"
                    + " frame is priority 0, which a pause on 3 does not stop",
            "  --pfc 0,0,0,1,0,0,0,0         the priorities whose PFC pauses the NIC acts on, priority 0 first (mlnx_qos"
                    + " --pfc; default every priority); others are counted in rx_pfc_ignored and not acted on",
            "  --dcbx willing|off            DCBX: willing (the default, as lldpad and ConnectX) takes a not-willing link"
                    + " partner's PFC, ETS and application priorities from its LLDPDUs; off keeps the NIC's own");

    /** A NIC that runs PFC with rocelab's default DCB settings. */
    public NicCongestion(boolean dcqcn, DcqcnParams params, int pfcStormPriority, PauseResponse pauseResponse) {
        this(dcqcn, params, pfcStormPriority, pauseResponse, FlowControlMode.PFC, DcbSettings.DEFAULTS);
    }

    public NicCongestion {
        Objects.requireNonNull(flowControl, "flowControl");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(pauseResponse, "pauseResponse");
        Objects.requireNonNull(dcb, "dcb");
        if (pfcStormPriority < -1 || pfcStormPriority > 7) {
            throw new IllegalArgumentException("pfcStormPriority must be -1..7: " + pfcStormPriority);
        }
    }

    /**
     * The settings of the three flags as given on a command line.
     *
     * @param cc       {@code --cc}'s value, or null
     * @param ccParams each {@code --cc-param}'s value, in order
     * @param pfcStorm {@code --pfc-storm}'s value, or null
     * @param pauseResponse {@code --pause-response}'s value, or null
     * @throws OptionException one line naming the bad flag or value
     */
    static NicCongestion parse(String cc, List<String> ccParams, String pfcStorm, String pauseResponse) {
        boolean dcqcn = false;
        if (cc != null) {
            dcqcn = switch (cc) {
                case "dcqcn" -> true;
                case "none" -> false;
                default -> throw new OptionException(" --cc must be dcqcn or none, got '" + cc + "'");
            };
        }
        DcqcnParams params = DcqcnParams.defaults();
        for (String a : ccParams) {
            try {
                params = params.withAssignment(a);
            } catch (IllegalArgumentException e) {
                throw new OptionException(" --cc-param: " + e.getMessage());
            }
            String name = a.substring(0, a.indexOf('=')).trim();
            if (!dcqcn && name.startsWith("rp_")) {
                throw new OptionException(" --cc-param " + name + " is a parameter of DCQCN's reaction point;"
                        + " it needs --cc dcqcn");
            }
        }
        int storm = -1;
        if (pfcStorm != null) {
            storm = switch (pfcStorm) {
                case "0", "1", "2", "3", "4", "5", "6", "7" -> Integer.parseInt(pfcStorm);
                default -> throw new OptionException(" --pfc-storm wants a priority 0..7, got '" + pfcStorm + "'");
            };
        }
        PauseResponse response = PauseResponse.IEEE;
        if (pauseResponse != null) {
            try {
                response = PauseResponse.parse(pauseResponse);
            } catch (IllegalArgumentException e) {
                throw new OptionException(" --pause-response: " + e.getMessage());
            }
        }
        return new NicCongestion(dcqcn, params, storm, response, FlowControlMode.PFC, DcbSettings.DEFAULTS);
    }

    /**
     * The NIC's DCB settings from {@code --trust}, {@code --pfc} and {@code --dcbx} (each null when
     * not given): {@link DcbSettings#DEFAULTS} with what they change.
     *
     * @throws OptionException one line naming the bad flag and value
     */
    static DcbSettings parseDcb(String trust, String pfc, String dcbx) {
        DcbSettings s = DcbSettings.DEFAULTS;
        try {
            if (trust != null) {
                s = s.withTrust(DcbSettings.Trust.parse(trust));
            }
        } catch (IllegalArgumentException e) {
            throw new OptionException(" --trust: " + e.getMessage());
        }
        try {
            if (pfc != null) {
                s = s.withPfc(DcbSettings.parsePfc(pfc));
            }
        } catch (IllegalArgumentException e) {
            throw new OptionException(" --pfc: " + e.getMessage());
        }
        try {
            if (dcbx != null) {
                s = s.withDcbx(DcbSettings.DcbxMode.parse(dcbx));
            }
        } catch (IllegalArgumentException e) {
            throw new OptionException(" --dcbx: " + e.getMessage());
        }
        return s;
    }

    /** The same with DCB settings {@code settings}. */
    NicCongestion withDcb(DcbSettings settings) {
        return new NicCongestion(dcqcn, params, pfcStormPriority, pauseResponse, flowControl, settings);
    }

    /** The same NIC without the storm (the in-process client's). */
    NicCongestion withoutStorm() {
        return new NicCongestion(dcqcn, params, -1, pauseResponse, flowControl, dcb);
    }

    /**
     * {@code --pause on|off}: the NIC's link flow control, ethtool's {@code --pause} (alias
     * {@code -A}) with {@code rx} and {@code tx} together. A port runs PFC or PAUSE, never both
     * (mlx5 refuses global pause while PFC is on), so {@code --pause on} beside {@code --pfc-storm}
     * or {@code --pfc} is a mistake.
     *
     * @param pause    {@code --pause}'s value, or null
     * @param pfc      whether {@code --pfc-storm} or {@code --pfc} was given
     * @throws OptionException one line naming the bad value or combination
     */
    NicCongestion withLinkPause(String pause, boolean pfc) {
        if (pause == null || pause.equals("off")) {
            return this;
        }
        if (!pause.equals("on")) {
            throw new OptionException(" --pause must be on or off, got '" + pause + "'");
        }
        if (pfc) {
            throw new OptionException(" --pause on runs 802.3x PAUSE on the port instead of PFC: it cannot take"
                    + " --pfc-storm's or --pfc's PFC too");
        }
        return new NicCongestion(dcqcn, params, pfcStormPriority, pauseResponse, FlowControlMode.PAUSE, dcb);
    }

    /** Sets the NIC's congestion control, its notification point's parameters, its pause response and DCB settings. */
    SoftNic.Builder configure(SoftNic.Builder b) {
        b.pauseResponse(pauseResponse);
        b.flowControl(flowControl);
        b.dcb(dcb);
        if (dcqcn) {
            return b.dcqcn(params);
        }
        if (!params.equals(DcqcnParams.defaults())) {
            // only np_* can differ here: the notification point's parameters, no reaction point
            return b.dcqcn(params).congestionControl(NoCongestionControl::new, false);
        }
        return b;
    }

    /** Starts the storm, if any, on a NIC just built with {@link #configure}. */
    void start(SoftNic nic) {
        if (pfcStormPriority >= 0) {
            nic.startPfcStorm(pfcStormPriority);
        }
    }
}
