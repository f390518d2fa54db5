package io.rocelab.lab.check;

import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.sw.config.PortConfig;
import io.rocelab.sw.config.SwitchConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.TreeSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A fabric as the lossless checks read it: switches with their SONiC configurations, NIC ports with
 * their DCB settings, the cables between them, and what a check must assume that no configuration
 * says (the incast degree, the CNPs' DSCP, how long a peer takes to act on a pause).
 *
 * @param switches the switches, each with the file findings about it name
 * @param nics     the NIC ports cabled to a switch
 * @param cables   the cables; a port on none is not on any path (in a lab), or is cabled to something
 *                 the check does not know (config files without a link)
 * @param assume   the assumptions
 */
public record FabricView(List<SwitchView> switches, List<NicView> nics, List<Cable> cables, Assumptions assume) {
    public FabricView {
        switches = List.copyOf(switches);
        nics = List.copyOf(nics);
        cables = List.copyOf(cables);
        Objects.requireNonNull(assume, "assume");
    }

    /**
     * A switch.
     *
     * @param name        its name in the fabric (a config_db's {@code DEVICE_METADATA hostname})
     * @param file        what findings about it name: its config_db.json, or the lab file and the switch
     * @param config      its configuration
     * @param allPortsLive true when every port may carry the class (config files: the check does not know
     *                    what is cabled where); false when only cabled ports do (a lab)
     */
    public record SwitchView(String name, String file, SwitchConfig config, boolean allPortsLive) {
    }

    /**
     * A NIC's port.
     *
     * @param host     the host
     * @param port     its port ({@code eth0})
     * @param file     what findings about it name (the lab file and the host)
     * @param qos      its DCB settings
     * @param response how long it takes to act on a pause
     * @param vlanId   the VLAN it tags its frames with, 0 for untagged
     * @param pcp      the PCP of its RoCE frames when it tags
     * @param dscps    the DSCPs its RoCE frames carry (the fabric's RoCE class and its flows' own)
     */
    public record NicView(String host, String port, String file, NicQosView qos, PauseResponse response, int vlanId,
                          int pcp, Set<Integer> dscps) {
        public NicView {
            dscps = Set.copyOf(dscps);
        }

        /** @return the 802.1p priority its frames of {@code dscp} leave at: the PCP when it tags, else DSCP / 8 */
        public int sendPriority(int dscp) {
            return vlanId != 0 ? pcp : dscp >> 3;
        }

        /** @return how the NIC picks that priority, for a message */
        public String sendPriorityWhy(int dscp) {
            return vlanId != 0 ? "its VLAN " + vlanId + " tag's PCP " + pcp : "DSCP " + dscp + " / 8";
        }
    }

    /** One end of a cable: a switch's port or a host's. */
    public record End(String node, String port) {
        @Override
        public String toString() {
            return node + ":" + port;
        }
    }

    /**
     * A cable.
     *
     * @param a      one end
     * @param b      the other
     * @param meters its length, or -1 when only the ends' {@code CABLE_LENGTH} say it
     * @param how    how the length is known, for a message ({@code "1000 m of cable (5 us)"}), or empty
     */
    public record Cable(End a, End b, int meters, String how) {
        /** @return the end opposite {@code end} */
        public End other(End end) {
            return end.equals(a) ? b : a;
        }
    }

    /**
     * What the checks assume.
     *
     * @param incast        how many senders an incast has (the ECN check's), at least 1
     * @param incastWhy     where that number comes from, for the message
     * @param incastFlag    how a user changes it, for the message ({@code --incast N})
     * @param cnpDscp       the DSCP CNPs carry (48, mlx5's default {@code cnp_dscp})
     * @param switchResponse how long a switch port takes to act on a pause, or null for SONiC's assumed
     *                      3.8 KiB ({@code peer_response_time} of the SN2700's {@code pg_profile_lookup.ini})
     * @param responseWhy   what the switch response is, for a message
     * @param ecnReacts     whether something reacts to ECN marks (a lab's NICs run DCQCN; always for config
     *                      files): without, marking before PFC changes nothing and is not checked
     */
    public record Assumptions(int incast, String incastWhy, String incastFlag, int cnpDscp,
                              PauseResponse switchResponse, String responseWhy, boolean ecnReacts) {
    }

    /** @return the switch called {@code name}, or null */
    public SwitchView switchNamed(String name) {
        for (SwitchView s : switches) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** @return the NIC port at {@code end}, or null */
    public NicView nicAt(End end) {
        for (NicView n : nics) {
            if (n.host.equals(end.node()) && n.port.equals(end.port())) {
                return n;
            }
        }
        return null;
    }

    /** @return the cable plugged into {@code end}, or null */
    public Cable cableAt(End end) {
        for (Cable c : cables) {
            if (c.a.equals(end) || c.b.equals(end)) {
                return c;
            }
        }
        return null;
    }

    /** @return the ports of {@code s} that may carry the class: its cabled ports, or all of them */
    public List<PortConfig> livePorts(SwitchView s) {
        List<PortConfig> out = new ArrayList<>();
        for (PortConfig p : s.config.ports()) {
            if (s.allPortsLive || cableAt(new End(s.name, p.name())) != null) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The DSCPs of the lossless classes: every DSCP a live port trusting DSCP puts in a traffic class
     * with PFC. A DSCP lossless nowhere is a lossy class by choice, and nothing is checked for it.
     */
    public Set<Integer> losslessDscps() {
        Set<Integer> out = new TreeSet<>();
        for (SwitchView s : switches) {
            for (PortConfig p : livePorts(s)) {
                if (p.trust() != io.rocelab.sw.config.Trust.DSCP) {
                    continue;
                }
                for (int d = 0; d < 64; d++) {
                    if (p.pfcEnabled(p.dscpToTc()[d])) {
                        out.add(d);
                    }
                }
            }
        }
        return out;
    }

    /** @return the switches by name */
    Map<String, SwitchView> byName() {
        Map<String, SwitchView> m = new HashMap<>();
        switches.forEach(s -> m.put(s.name, s));
        return m;
    }
}
