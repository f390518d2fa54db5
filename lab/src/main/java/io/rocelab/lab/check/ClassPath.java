package io.rocelab.lab.check;

import io.rocelab.lab.check.FabricView.Cable;
import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.NicView;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.Trust;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lossless class keeps its traffic class, priority group and queue along its paths: each DSCP a port
 * puts in a traffic class with PFC ({@link FabricView#losslessDscps}) is followed through every switch
 * (its ports agree: a path may come in at one and leave at another) and across every cable (the hop
 * after sees it as the hop before did). A pause names a priority, which the receiver maps to a queue
 * ({@code tc_to_queue_map}, SAI's {@code PFC_PRIORITY_TO_QUEUE}, rocelab's switch reading the traffic
 * class as the priority): a class in another TC at the next hop is paused in the wrong queue, or not
 * at all.
 */
final class ClassPath implements FabricCheck {
    /** What a DSCP gets at one ingress port. */
    private record Cls(int tc, boolean lossless, int pg, int queue) {
        static Cls of(PortConfig p, int tc) {
            return new Cls(tc, p.pfcEnabled(tc), p.tcToPg()[tc], p.tcToQueue()[tc]);
        }

        String describe() {
            return lossless ? "lossless TC " + tc : "TC " + tc + ", without PFC,";
        }
    }

    @Override
    public void check(FabricView f, List<Finding> out) {
        for (int dscp : f.losslessDscps()) {
            for (SwitchView s : f.switches()) {
                withinSwitch(f, s, dscp, out);
            }
            for (Cable c : f.cables()) {
                if (Ports.at(f, c.a()) != null && Ports.at(f, c.b()) != null) {
                    switchToSwitch(f, c, dscp, out);
                } else {
                    nicToSwitch(f, c.a(), c.b(), dscp, out);
                    nicToSwitch(f, c.b(), c.a(), dscp, out);
                }
            }
        }
    }

    /** The switch's live ports trusting DSCP agree on the class: the most common lossless one, else a finding. */
    private static void withinSwitch(FabricView f, SwitchView s, int dscp, List<Finding> out) {
        Map<Cls, List<PortConfig>> groups = new LinkedHashMap<>();
        for (PortConfig p : f.livePorts(s)) {
            if (p.trust() == Trust.DSCP) {
                groups.computeIfAbsent(Cls.of(p, p.dscpToTc()[dscp]), k -> new ArrayList<>()).add(p);
            }
        }
        Cls ref = null;
        for (var e : groups.entrySet()) {
            if (e.getKey().lossless() && (ref == null || e.getValue().size() > groups.get(ref).size())) {
                ref = e.getKey();
            }
        }
        if (ref == null || groups.size() < 2) {
            return;
        }
        String example = groups.get(ref).get(0).name();
        for (var e : groups.entrySet()) {
            if (e.getKey().equals(ref)) {
                continue;
            }
            for (PortConfig p : e.getValue()) {
                out.add(new Finding(s.file(), "PORT_QOS_MAP", p.name(), "",
                    differ(dscp, e.getKey(), ref, example + " of the same switch (a path through it may come in at one and"
                        + " leave at the other)")));
            }
        }
    }

    /**
     * A cable between two switches: each end classifies what the other sends it; they agree, or the
     * finding goes to the end where the class is not lossless (else to the second end).
     */
    private static void switchToSwitch(FabricView f, Cable c, int dscp, List<Finding> out) {
        PortConfig a = Ports.at(f, c.a());
        PortConfig b = Ports.at(f, c.b());
        Cls ca = Cls.of(a, Ports.tc(a, dscp, pcpFrom(b, a, dscp)));
        Cls cb = Cls.of(b, Ports.tc(b, dscp, pcpFrom(a, b, dscp)));
        if (!ca.lossless() && !cb.lossless() || ca.equals(cb)) {
            return;
        }
        boolean atA = !ca.lossless();
        End here = atA ? c.a() : c.b();
        End there = atA ? c.b() : c.a();
        PortConfig h = atA ? a : b;
        PortConfig t = atA ? b : a;
        Cls ch = atA ? ca : cb;
        Cls ct = atA ? cb : ca;
        String msg = differ(dscp, ch, ct, there + " (the other end of the cable)");
        if (ch.lossless() && ct.lossless() && ch.tc() != ct.tc() && t.tcToQueue()[ch.tc()] != t.tcToQueue()[ct.tc()]) {
            msg += ": the pause sent here for priority " + ch.tc() + " stops queue " + t.tcToQueue()[ch.tc()] + " at "
                + there + ", not queue " + t.tcToQueue()[ct.tc()] + " where the class waits";
        }
        out.add(new Finding(f.switchNamed(here.node()).file(), "PORT_QOS_MAP", h.name(), "", msg));
    }

    /**
     * The PCP a frame of {@code dscp} from {@code from} carries into {@code to}: none unless {@code to} is a
     * tagged VLAN member; then {@code tc_to_dot1p_map}'s at {@code from}, or its traffic class.
     */
    private static int pcpFrom(PortConfig from, PortConfig to, int dscp) {
        if (!Ports.taggedMember(to)) {
            return -1;
        }
        int tc = Ports.tc(from, dscp, -1);
        return from.tcToDot1p() != null ? from.tcToDot1p()[tc] : tc;
    }

    /** A NIC's frames into its switch port: the priority the NIC sends them at is the one the port pauses. */
    private static void nicToSwitch(FabricView f, End up, End down, int dscp, List<Finding> out) {
        PortConfig d = Ports.at(f, down);
        NicView nic = f.nicAt(up);
        if (d == null || nic == null || !nic.dscps().contains(dscp)) {
            return;
        }
        int prio = nic.sendPriority(dscp);
        Cls cd = Cls.of(d, Ports.tc(d, dscp, nic.vlanId() != 0 ? nic.pcp() : -1));
        if (cd.lossless() && prio != cd.tc()) {
            out.add(new Finding(nic.file(), "", nic.vlanId() != 0 ? "hosts." + nic.host() + ".pcp" : "hosts." + nic.host(), "",
                "the NIC sends DSCP " + dscp + " at priority " + prio + " (" + nic.sendPriorityWhy(dscp) + "), " + down
                    + " puts it in lossless TC " + cd.tc() + " and pauses priority " + cd.tc()
                    + " (the other end of the cable): its pauses do not stop the NIC"));
        }
    }

    /** The message for a port whose class {@code here} differs from {@code there}'s {@code ref}. */
    private static String differ(int dscp, Cls here, Cls ref, String there) {
        if (here.tc() != ref.tc() || here.lossless() != ref.lossless()) {
            return "DSCP " + dscp + " lands in " + here.describe() + " here, in " + ref.describe() + " at " + there
                + " (dscp_to_tc_map, pfc_enable)";
        }
        if (here.pg() != ref.pg()) {
            return "TC " + here.tc() + " (DSCP " + dscp + ") is in PG " + here.pg() + " here, in PG " + ref.pg() + " at "
                + there + " (tc_to_pg_map)";
        }
        return "TC " + here.tc() + " (DSCP " + dscp + ") leaves by queue " + here.queue() + " here, by queue "
            + ref.queue() + " at " + there + " (tc_to_queue_map)";
    }
}
