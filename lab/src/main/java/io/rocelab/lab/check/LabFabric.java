package io.rocelab.lab.check;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.lab.check.FabricView.Assumptions;
import io.rocelab.lab.check.FabricView.Cable;
import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.NicView;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.lab.labfile.LabFlow;
import io.rocelab.lab.labfile.Quantity;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.nic.dcb.DcbSettings;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.topology.model.Attachment;
import io.rocelab.topology.model.Host;
import io.rocelab.topology.model.Link;
import io.rocelab.topology.model.SwitchNode;
import io.rocelab.topology.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A lab's fabric as the lossless checks read it: the switch configurations the run would build (the
 * fabric's QoS profile written into every generated switch, a {@code config:} switch as its file says),
 * every link as a cable of its real length (its {@code cable}, or the length its {@code delay} is at 5 ns
 * a metre, whatever {@code CABLE_LENGTH} the switch was told), and the NICs' DCB settings.
 *
 * <p>The NICs: {@link #nicQos(Host, boolean)} is the one place a NIC's DCB settings are read: the host's
 * (the lab's {@code nics:} trust, pfc and dcbx, or the host's own), willing only where LLDP runs
 * ({@code lldp: true}), since without LLDPDUs a willing NIC hears nothing to adopt and keeps its own.
 */
public final class LabFabric {
    /** The ECN check's incast when the lab's flows converge on no host: the fewest senders that build a queue. */
    static final int MIN_INCAST = 2;

    private LabFabric() {
    }

    /**
     * @param run    one run of the lab (a variant)
     * @param label  what findings name: the lab file, and the variant when it has several
     * @param incast the ECN check's incast degree, or 0 for the lab's largest fan-in
     * @return the fabric
     */
    public static FabricView of(RunSpec run, String label, int incast) {
        Topology t = run.topology();
        List<SwitchView> switches = new ArrayList<>();
        for (SwitchNode s : t.switches()) {
            switches.add(new SwitchView(s.name(), label + ": " + s.name(), s.config(), false));
        }
        int roceDscp = t.qos() != null ? t.qos().roceDscp() : 0;
        Map<String, Set<Integer>> dscps = new HashMap<>();
        for (LabFlow f : run.flows()) {
            if (f instanceof LabFlow.Rdma r) {
                int d = r.flow().dscp() >= 0 ? r.flow().dscp() : roceDscp;
                dscps.computeIfAbsent(f.source(), k -> new TreeSet<>(Set.of(roceDscp))).add(d);
                dscps.computeIfAbsent(f.destination(), k -> new TreeSet<>(Set.of(roceDscp))).add(d);
            }
        }
        List<NicView> nics = new ArrayList<>();
        List<Cable> cables = new ArrayList<>();
        for (Link l : t.links()) {
            cables.add(new Cable(end(l.a()), end(l.b()), meters(l), length(l)));
            for (Attachment a : List.of(l.a(), l.b())) {
                if (t.node(a.node()) instanceof Host h) {
                    nics.add(new NicView(h.name(), a.port(), label + ": " + h.name(), nicQos(h, run.lldp()),
                        h.pauseResponse(),
                        h.vlanId(), h.pcp(), dscps.getOrDefault(h.name(), Set.of(roceDscp))));
                }
            }
        }
        int cnp = t.qos() != null ? t.qos().cnpDscp() : 48;
        String why;
        int n = incast;
        if (n > 0) {
            why = "as given";
        } else {
            Fanin fanin = fanin(run.flows());
            n = Math.max(MIN_INCAST, fanin.senders());
            why = fanin.senders() >= MIN_INCAST ? "the lab's largest fan-in: " + fanin.senders() + " senders to "
                + fanin.destination() : "no " + MIN_INCAST + " of the lab's flows go to one host; the fewest senders"
                + " that build a queue";
        }
        return new FabricView(switches, nics, cables, new Assumptions(n, why, "--incast N", cnp, PauseResponse.IEEE,
            "a soft switch port's pause response (IEEE 802.3's bound)", run.nics().dcqcn()));
    }

    /**
     * The DCB settings of {@code host}'s NIC (the lab's {@code nics:} trust, pfc and dcbx, over which a host
     * of a spelled-out fabric may set its own): willing when its DCBX is and LLDP runs to carry the switch's
     * TLVs ({@code lldp: true}); without LLDP it keeps its own, as a run does.
     */
    static NicQosView nicQos(Host host, boolean lldp) {
        DcbSettings d = host.dcb();
        return new NicQosView(d.pfcEnable(), d.trust(), lldp && d.dcbx() == DcbSettings.DcbxMode.WILLING);
    }

    private record Fanin(int senders, String destination) {
    }

    /** The most distinct sources of the lab's flows to one destination. */
    private static Fanin fanin(List<LabFlow> flows) {
        Map<String, Set<String>> sources = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (LabFlow f : flows) {
            if (!sources.containsKey(f.destination())) {
                order.add(f.destination());
            }
            sources.computeIfAbsent(f.destination(), k -> new HashSet<>()).add(f.source());
        }
        Fanin best = new Fanin(0, "");
        for (String d : order) {
            if (sources.get(d).size() > best.senders()) {
                best = new Fanin(sources.get(d).size(), d);
            }
        }
        return best;
    }

    private static End end(Attachment a) {
        return new End(a.node(), a.port());
    }

    private static int meters(Link l) {
        return l.cableMeters() >= 0 ? l.cableMeters()
            : (int) ((l.propagationDelayNanos() + ConfigLoader.NANOS_PER_METRE - 1) / ConfigLoader.NANOS_PER_METRE);
    }

    private static String length(Link l) {
        return l.cableMeters() >= 0 ? l.cableMeters() + " m of cable"
            : meters(l) + " m of cable (the link's delay, " + Quantity.formatNanos(l.propagationDelayNanos()) + ")";
    }
}
