package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SchedulerConfig;
import io.rocelab.sw.config.Trust;
import io.rocelab.sw.config.VlanMembership;
import java.util.ArrayList;
import java.util.List;

/** What the checks ask of a switch port, in one place. */
final class Ports {
    private Ports() {
    }

    /** @return the port at {@code end} if it is a switch's, else null */
    static PortConfig at(FabricView f, End end) {
        SwitchView s = f.switchNamed(end.node());
        if (s == null) {
            return null;
        }
        int i = s.config().portIndex(end.port());
        return i < 0 ? null : s.config().ports().get(i);
    }

    /** @return {@code pfc_enable} as SONiC writes it ({@code 3,4}), or {@code none} */
    static String priorities(int mask) {
        List<String> out = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            if ((mask & 1 << p) != 0) {
                out.add(String.valueOf(p));
            }
        }
        return out.isEmpty() ? "none" : String.join(",", out);
    }

    /** @return a priority mask as mlnx_qos's {@code --pfc} writes it: {@code 0,0,0,1,0,0,0,0} */
    static String mlnxQos(int mask) {
        StringBuilder sb = new StringBuilder();
        for (int p = 0; p < 8; p++) {
            sb.append(p == 0 ? "" : ",").append((mask >> p) & 1);
        }
        return sb.toString();
    }

    /** @return whether the port is a tagged member of some VLAN (frames on its link carry a PCP) */
    static boolean taggedMember(PortConfig p) {
        VlanMembership v = p.vlans();
        if (v == null) {
            return false;
        }
        for (int vid = 1; vid <= 4094; vid++) {
            if (v.isTagged(vid)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The traffic class a frame of {@code dscp} gets at ingress port {@code p}, as the switch's classifier
     * does: by DSCP on a port trusting DSCP, by PCP on one trusting PCP when the frame is tagged, else TC 0.
     *
     * @param pcp the frame's PCP, or -1 when it is untagged
     */
    static int tc(PortConfig p, int dscp, int pcp) {
        if (p.trust() == Trust.DSCP) {
            return p.dscpToTc()[dscp];
        }
        if (p.trust() == Trust.DOT1P && pcp >= 0) {
            return p.dot1pToTc()[pcp];
        }
        return 0;
    }

    /** @return a queue's scheduling, for a message: {@code strict (scheduler.cnp)} or {@code DWRR weight 15 (scheduler.1)} */
    static String scheduling(SchedulerConfig s) {
        String how = s.strict() ? "strict" : "DWRR weight " + s.weight();
        return s == SchedulerConfig.DEFAULT ? how + " (no scheduler given)" : how + " (" + s.name() + ")";
    }
}
