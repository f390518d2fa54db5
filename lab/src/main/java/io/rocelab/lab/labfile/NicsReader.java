package io.rocelab.lab.labfile;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.nic.FlowControlMode;
import io.rocelab.nic.cc.DcqcnParams;
import io.rocelab.topology.qos.QosProfile;
import io.rocelab.nic.dcb.DcbSettings;
import java.util.Map;

/**
 * {@code nics:}: every host NIC's settings: congestion control ({@code cc: none | dcqcn}), DCQCN's
 * parameters ({@code cc-params}, mlx5's names) and how long a NIC takes to act on a PFC XOFF
 * ({@code pause-response}), their link flow control ({@code flow-control: pfc | pause}: PFC, or
 * IEEE 802.3x PAUSE for the whole port, never both), and their DCB settings as mlnx_qos sets them
 * ({@code trust}, {@code pfc}, {@code dcbx}), and whether their RC QPs place data out of order
 * ({@code out-of-order: true}, mlx5dv's {@code MLX5DV_QP_CREATE_OOO_DP}; off unless given).
 */
final class NicsReader {
    private NicsReader() {
    }

    /**
     * The NICs and the switch ports on their cables run one link flow control: NICs in 802.3x
     * PAUSE ({@code nics: flow-control: pause}) beside switch ports in PFC (the QoS profile's
     * default), or the reverse, is a mistake of the file, one line at the key that says pause. A
     * switch with a config_db of its own keeps its own {@code PORT global_flow_control}; say
     * {@code qos: {flow-control: pause}} beside it too.
     */
    static void agreeWithSwitches(Section top, NicSpec nics, QosProfile qos) {
        boolean nicPause = nics.flowControl() == FlowControlMode.PAUSE;
        boolean switchPause = qos != null && qos.linkPause();
        if (nicPause == switchPause) {
            return;
        }
        String where = nicPause ? "nics" : "qos";
        Section s = top.anySection(where);
        if (s != null) {
            s.mistake("flow-control", nicPause
                ? "the NICs run 802.3x PAUSE but the switch ports run PFC: add qos: {flow-control: pause} (a link "
                    + "runs PFC or PAUSE, not both)"
                : "the switch ports run 802.3x PAUSE but the NICs run PFC: add nics: {flow-control: pause} (a link "
                    + "runs PFC or PAUSE, not both)");
        }
    }

    /** @return the NICs' settings, {@link NicSpec#DEFAULTS} without the section (mistakes reported) */
    static NicSpec read(Section top) {
        Section s = top.section("nics", "cc", "cc-params", "pause-response", "flow-control", "trust", "pfc", "dcbx",
            "out-of-order", "roce-v1");
        if (s == null) {
            return NicSpec.DEFAULTS;
        }
        String cc = s.string("cc", "none");
        if (!cc.equals("none") && !cc.equals("dcqcn")) {
            s.mistake("cc", "congestion control is none or dcqcn, not '" + cc + "'");
            cc = "none";
        }
        DcqcnParams params = DcqcnParams.defaults();
        if (s.has("cc-params")) {
            Section p = s.anySection("cc-params");
            if (p != null) {
                for (Map.Entry<String, YNode> e : p.map().entries().entrySet()) {
                    String text = e.getValue() instanceof YNode.YScalar sc ? sc.text() : YNode.kind(e.getValue());
                    try {
                        params = params.with(e.getKey(), text);
                    } catch (IllegalArgumentException ex) {
                        p.problems().add(p.map().keyLoc(e.getKey()), p.path(e.getKey()), ex.getMessage());
                    }
                }
                if (!cc.equals("dcqcn") && !p.map().entries().isEmpty()) {
                    s.mistake("cc-params", "DCQCN's parameters need cc: dcqcn");
                }
            }
        }
        PauseResponse response = PauseResponse.IEEE;
        String r = s.text("pause-response");
        if (r != null) {
            try {
                response = PauseResponse.parse(r);
            } catch (IllegalArgumentException e) {
                s.mistake("pause-response", e.getMessage());
            }
        }
        FlowControlMode flow = FlowControlMode.PFC;
        String fc = s.string("flow-control", "pfc");
        if (fc.equals("pause")) {
            flow = FlowControlMode.PAUSE;
        } else if (!fc.equals("pfc")) {
            s.mistake("flow-control", "a NIC's link flow control is pfc (mlnx_qos --pfc) or pause (ethtool -A rx on "
                + "tx on), not '" + fc + "'");
        }
        return new NicSpec(cc, params, response, flow, dcb(s, DcbSettings.DEFAULTS), outOfOrder(s, false),
            roceV1(s, false));
    }

    /**
     * {@code out-of-order: true | false} of a {@code nics:} section or a host entry, over {@code base}:
     * whether the NIC's RC QPs place data out of order; anything else is a mistake at the key.
     */
    static boolean outOfOrder(Section s, boolean base) {
        return s.bool("out-of-order", base);
    }

    /**
     * {@code roce-v1: true | false} of a {@code nics:} section or a host entry, over {@code base}:
     * whether the NIC lists RoCEv1 GIDs beside its RoCEv2 ones (a ConnectX's table).
     */
    static boolean roceV1(Section s, boolean base) {
        return s.bool("roce-v1", base);
    }

    /**
     * {@code trust: dscp | pcp}, {@code pfc: 0,0,0,1,0,0,0,0} (mlnx_qos's spelling: priority 0 first;
     * or a list of the eight)
     * and {@code dcbx: willing | off} of a {@code nics:} section or a host entry, over {@code base};
     * each bad value a mistake at its key.
     */
    static DcbSettings dcb(Section s, DcbSettings base) {
        DcbSettings d = base;
        String trust = s.text("trust");
        if (trust != null) {
            try {
                d = d.withTrust(DcbSettings.Trust.parse(trust));
            } catch (IllegalArgumentException e) {
                s.mistake("trust", e.getMessage());
            }
        }
        // mlnx_qos's 0,0,0,1,0,0,0,0 as a plain scalar, or a list [0, 0, 0, 1, 0, 0, 0, 0] (a flow mapping
        // splits the plain form at its commas unless quoted)
        String pfc = s.get("pfc") instanceof YNode.YList l
            ? String.join(",", l.items().stream().map(i -> i instanceof YNode.YScalar sc ? sc.text() : YNode.kind(i)).toList())
            : s.text("pfc");
        if (pfc != null) {
            try {
                d = d.withPfc(DcbSettings.parsePfc(pfc));
            } catch (IllegalArgumentException e) {
                s.mistake("pfc", e.getMessage());
            }
        }
        // YAML reads a bare off (and no, false) as false: that is DCBX off
        String dcbx = s.get("dcbx") instanceof YNode.YScalar sc && Boolean.FALSE.equals(sc.value()) ? "off"
            : s.text("dcbx");
        if (dcbx != null) {
            try {
                d = d.withDcbx(DcbSettings.DcbxMode.parse(dcbx));
            } catch (IllegalArgumentException e) {
                s.mistake("dcbx", e.getMessage());
            }
        }
        return d;
    }
}
