package io.rocelab.lab.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.lab.check.FabricView.Assumptions;
import io.rocelab.lab.check.FabricView.Cable;
import io.rocelab.lab.check.FabricView.End;
import io.rocelab.lab.check.FabricView.NicView;
import io.rocelab.lab.check.FabricView.SwitchView;
import io.rocelab.sw.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Each lossless check on two SN2700 T1 switches (labs/sonic's real config_db, its CNP queue made strict so
 * that the pair is clean) cabled Ethernet0 to Ethernet0: one change that trips the check, and the same
 * fabric without it finding nothing.
 */
class LosslessChecksTest {
    private static final Path ROOT = Path.of(System.getProperty("rocelab.root", ".."));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Assumptions ASSUME = new Assumptions(2, "as given", "--incast N", 48, null,
        "SONiC's assumed pause response", true);

    /** The real SN2700 T1 file with its CNP queue (6) strict: a clean switch called {@code name}. */
    private static ObjectNode sn2700(String name) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(Files.readString(ROOT.resolve("labs/sonic/mellanox-sn2700-t1.json")));
        ((ObjectNode) root.with("DEVICE_METADATA").with("localhost")).put("hostname", name);
        root.with("SCHEDULER").with("scheduler.cnp").put("type", "STRICT");
        for (String port : List.of("Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet16", "Ethernet20",
            "Ethernet24", "Ethernet28")) {
            root.with("QUEUE").with(port + "|6").put("scheduler", "scheduler.cnp");
        }
        return root;
    }

    private static SwitchView view(ObjectNode root) {
        var cfg = ConfigLoader.parse(root.toString());
        return new SwitchView(cfg.hostname(), cfg.hostname() + ".json", cfg, true);
    }

    /** Switches a and b, cabled a:Ethernet0 to b:Ethernet0, each changed by its edit first. */
    private static List<String> pair(Consumer<ObjectNode> editA, Consumer<ObjectNode> editB) throws IOException {
        return pair(editA, editB, List.of(new Cable(new End("a", "Ethernet0"), new End("b", "Ethernet0"), -1, "")),
            ASSUME);
    }

    private static List<String> pair(Consumer<ObjectNode> editA, Consumer<ObjectNode> editB, List<Cable> cables,
                                     Assumptions assume) throws IOException {
        ObjectNode a = sn2700("a");
        ObjectNode b = sn2700("b");
        editA.accept(a);
        editB.accept(b);
        return LosslessCheck.lines(LosslessCheck.findings(new FabricView(List.of(view(a), view(b)), List.of(), cables,
            assume)));
    }

    private static Consumer<ObjectNode> none() {
        return r -> { };
    }

    private static ObjectNode entry(ObjectNode root, String table, String key) {
        return (ObjectNode) root.with(table).with(key);
    }

    @Test
    void theCleanPairFindsNothing() throws IOException {
        assertEquals(List.of(), pair(none(), none()));
    }

    @Test
    void pfcPrioritiesDifferingAtTheTwoEndsOfACable() throws IOException {
        List<String> found = pair(none(), b -> entry(b, "PORT_QOS_MAP", "Ethernet0").put("pfc_enable", "3"));
        assertTrue(found.contains("a.json: PORT_QOS_MAP|Ethernet0: pfc_enable 3,4 here, 3 at b:Ethernet0 (the other end"
            + " of the cable)"), String.join("\n", found));
        // the same change on a port no cable reaches is no disagreement
        List<String> uncabled = pair(none(), b -> entry(b, "PORT_QOS_MAP", "Ethernet4").put("pfc_enable", "3"),
            List.of(new Cable(new End("a", "Ethernet0"), new End("b", "Ethernet0"), -1, "")), ASSUME);
        assertTrue(uncabled.stream().noneMatch(l -> l.contains("pfc_enable 3,4 here")), String.join("\n", uncabled));
    }

    @Test
    void aNicThatIsNotWillingKeepsItsOwnPriorities() throws IOException {
        var sw = view(sn2700("a"));
        Cable cable = new Cable(new End("h1", "eth0"), new End("a", "Ethernet16"), -1, "");
        for (boolean willing : List.of(true, false)) {
            NicView nic = new NicView("h1", "eth0", "lab.yaml: h1", new NicQosView(1 << 3, io.rocelab.nic.dcb.DcbSettings.Trust.DSCP, willing),
                PauseResponse.IEEE, 0, 0, Set.of(3));
            List<String> found = LosslessCheck.lines(LosslessCheck.findings(new FabricView(List.of(sw), List.of(nic),
                List.of(cable), ASSUME)));
            if (willing) {
                assertEquals(List.of(), found.stream().filter(l -> l.contains("nics.pfc")).toList());
            } else {
                assertTrue(found.contains("lab.yaml: h1: nics.pfc: the NIC runs PFC on priorities 3 (0,0,0,1,0,0,0,0, its"
                    + " own: DCBX off or no LLDP), a:Ethernet16 on 3,4 (pfc_enable, the other end of the cable): it does"
                    + " not stop for the switch's pauses on 4"), String.join("\n", found));
            }
        }
        // a NIC acting on more priorities than its switch pauses (rocelab's default, every one) loses nothing
        NicView all = new NicView("h1", "eth0", "lab.yaml: h1", new NicQosView(0xFF, io.rocelab.nic.dcb.DcbSettings.Trust.DSCP, false),
            PauseResponse.IEEE, 0, 0, Set.of(3));
        assertEquals(List.of(), LosslessCheck.lines(LosslessCheck.findings(new FabricView(List.of(sw), List.of(all),
            List.of(cable), ASSUME))).stream().filter(l -> l.contains("nics.pfc")).toList());
    }

    @Test
    void theLosslessDscpInALossyTcAtTheNextHop() throws IOException {
        List<String> found = pair(none(), b -> entry(b, "DSCP_TO_TC_MAP", "AZURE").put("3", "1"));
        assertTrue(found.contains("b.json: PORT_QOS_MAP|Ethernet0: DSCP 3 lands in TC 1, without PFC, here, in lossless"
            + " TC 3 at a:Ethernet0 (the other end of the cable) (dscp_to_tc_map, pfc_enable)"), String.join("\n", found));
    }

    @Test
    void aTcsQueueDifferingBetweenHops() throws IOException {
        List<String> found = pair(none(), b -> entry(b, "TC_TO_QUEUE_MAP", "AZURE").put("3", "4"));
        assertTrue(found.contains("b.json: PORT_QOS_MAP|Ethernet0: TC 3 (DSCP 3) leaves by queue 4 here, by queue 3 at"
            + " a:Ethernet0 (the other end of the cable) (tc_to_queue_map)"), String.join("\n", found));
    }

    @Test
    void oneSwitchsPortsDisagreeingOnTheClass() throws IOException {
        // Ethernet4 binds its own map, which puts DSCP 3 in TC 4: a path in at Ethernet0 and out at Ethernet4 changes class
        List<String> found = pair(a -> {
            var map = entry(a, "DSCP_TO_TC_MAP", "ODD");
            entry(a, "DSCP_TO_TC_MAP", "AZURE").fields().forEachRemaining(e -> map.set(e.getKey(), e.getValue()));
            map.put("3", "4");
            entry(a, "PORT_QOS_MAP", "Ethernet4").put("dscp_to_tc_map", "ODD");
        }, none());
        assertTrue(found.contains("a.json: PORT_QOS_MAP|Ethernet4: DSCP 3 lands in lossless TC 4 here, in lossless TC 3"
            + " at Ethernet0 of the same switch (a path through it may come in at one and leave at the other)"
            + " (dscp_to_tc_map, pfc_enable)"), String.join("\n", found));
    }

    @Test
    void aTcWithPfcLeavingByALossyQueue() throws IOException {
        List<String> found = pair(a -> entry(a, "TC_TO_QUEUE_MAP", "AZURE").put("3", "1"), none());
        assertTrue(found.contains("a.json: BUFFER_QUEUE|Ethernet0,Ethernet4,Ethernet8,Ethernet12,Ethernet16,Ethernet20,"
            + "Ethernet24,Ethernet28|1: TC 3 has PFC (pfc_enable 3,4) and leaves by queue 1 (tc_to_queue_map), whose egress"
            + " profile 'q_lossy_profile' caps it (dynamic_th 3 of egress_lossy_pool): a switch drops the paused class there"
            + " once the queue passes that share"), String.join("\n", found));
    }

    @Test
    void aHeadroomShortOfTheLongerEndsCable() throws IOException {
        // a:Ethernet16 is told 40 m (its profile: xoff 38912), b:Ethernet0 300 m: the cable is the longer
        List<Cable> cable = List.of(new Cable(new End("a", "Ethernet16"), new End("b", "Ethernet0"), -1, ""));
        List<String> found = pair(none(), none(), cable, ASSUME);
        assertTrue(found.contains("a.json: BUFFER_PG|Ethernet16|3: headroom (xoff) 38912 of"
            + " 'pg_lossless_100000_40m_profile' is below the 102400 bytes SONiC's headroom formula gives for 100 Gb/s,"
            + " CABLE_LENGTH 40m here, 300m at b:Ethernet0, MTU 9100 and SONiC's assumed pause response"),
            String.join("\n", found));
        // two 300 m ends, or the 40 m port cabled to another 40 m port: enough
        assertEquals(List.of(), pair(none(), none(), List.of(new Cable(new End("a", "Ethernet16"),
            new End("b", "Ethernet20"), -1, "")), ASSUME));
        // a NIC at IEEE 802.3's bound needs more than SONiC's 3.8 KiB
        Assumptions ieee = new Assumptions(2, "as given", "--incast N", 48, PauseResponse.IEEE, "ieee", true);
        assertTrue(pair(none(), none(), List.of(), ieee).stream().anyMatch(l -> l.startsWith("a.json: BUFFER_PG|")));
    }

    @Test
    void kminAtOrAboveWherePfcFires() throws IOException {
        // 2 PGs of dynamic_th 0 in 3302912 bytes pause at 19456 + 3302912 / 3 each: 2240852 bytes in the queue
        List<String> found = pair(a -> entry(a, "WRED_PROFILE", "AZURE_LOSSLESS").put("green_min_threshold", "2240852")
            .put("green_max_threshold", "3000000"), none());
        assertEquals("a.json: WRED_PROFILE|AZURE_LOSSLESS: green_min_threshold 2240852 (Kmin) is at or above the"
            + " 2240852 bytes queue 3 of Ethernet0 holds when PFC fires: 2 sender(s) fill as many lossless PGs"
            + " ('pg_lossless_100000_300m_profile', dynamic_th 0 of ingress_lossless_pool's 3302912 bytes) to 1120426"
            + " bytes each, and they pause before ECN marks; assumed an incast of 2 (as given; --incast N to change it)",
            found.get(0));
        assertEquals(2, found.size(), "queues 3 and 4 share the profile: " + found);
        assertTrue(found.get(1).contains("queue 4 of Ethernet0"), found.get(1));
        assertEquals(List.of(), pair(a -> entry(a, "WRED_PROFILE", "AZURE_LOSSLESS").put("green_min_threshold", "2240851")
            .put("green_max_threshold", "3000000"), none()));
        // more senders queue more before the pause: 8 of them pass 2240852 long before
        Assumptions eight = new Assumptions(8, "as given", "--incast N", 48, null, "SONiC's", true);
        assertEquals(List.of(), pair(a -> entry(a, "WRED_PROFILE", "AZURE_LOSSLESS").put("green_min_threshold", "2240852")
            .put("green_max_threshold", "3000000"), none(), List.of(), eight));
    }

    @Test
    void cnpsBehindTheLosslessClassOrPaused() throws IOException {
        List<String> dwrr = pair(a -> entry(a, "QUEUE", "Ethernet0|6").put("scheduler", "scheduler.0"), none());
        assertEquals(List.of("a.json: QUEUE|Ethernet0|6: CNPs (DSCP 48, TC 6) leave by queue 6, DWRR weight 14"
            + " (scheduler.0), not strict above the lossless class's queue 3, DWRR weight 15 (scheduler.1): they wait"
            + " behind the congestion they report"), dwrr);
        List<String> paused = pair(a -> {
            entry(a, "PORT_QOS_MAP", "Ethernet0").put("pfc_enable", "3,4,6");
            var map = entry(a, "TC_TO_PRIORITY_GROUP_MAP", "ODD");
            entry(a, "TC_TO_PRIORITY_GROUP_MAP", "AZURE").fields().forEachRemaining(e -> map.set(e.getKey(), e.getValue()));
            map.put("6", "3");
            entry(a, "PORT_QOS_MAP", "Ethernet0").put("tc_to_pg_map", "ODD");
        }, b -> {
            entry(b, "PORT_QOS_MAP", "Ethernet0").put("pfc_enable", "3,4,6");
            var map = entry(b, "TC_TO_PRIORITY_GROUP_MAP", "ODD");
            entry(b, "TC_TO_PRIORITY_GROUP_MAP", "AZURE").fields().forEachRemaining(e -> map.set(e.getKey(), e.getValue()));
            map.put("6", "3");
            entry(b, "PORT_QOS_MAP", "Ethernet0").put("tc_to_pg_map", "ODD");
        });
        assertTrue(paused.contains("a.json: PORT_QOS_MAP|Ethernet0: CNPs (DSCP 48) land in TC 6, which has PFC (pfc_enable"
            + " 3,4,6): a pause holds back the notifications that would make it needless"), String.join("\n", paused));
    }

    @Test
    void noWatchdogOnALosslessQueue() throws IOException {
        assertEquals(List.of("a.json: PFC_WD|Ethernet4: no PFC watchdog on lossless queue(s) 3,4 (pfc_enable 3,4): a link"
            + " partner that never stops pausing stalls them for good, and the pauses spread upstream"),
            pair(a -> a.with("PFC_WD").remove("Ethernet4"), none()));
    }

    @Test
    void pcpTrustOnAnUntaggedLink() throws IOException {
        ObjectNode a = sn2700("a");
        a.with("PORT_QOS_MAP").remove("global");
        entry(a, "DOT1P_TO_TC_MAP", "AZURE").put("3", "3").put("4", "4");
        entry(a, "PORT_QOS_MAP", "Ethernet16").remove("dscp_to_tc_map");
        entry(a, "PORT_QOS_MAP", "Ethernet16").put("dot1p_to_tc_map", "AZURE");
        var sw = view(a);
        Cable cable = new Cable(new End("h1", "eth0"), new End("a", "Ethernet16"), -1, "");
        List<String> out = new ArrayList<>();
        for (int vlan : List.of(0, 100)) {
            NicView nic = new NicView("h1", "eth0", "lab.yaml: h1", NicQosView.DEFAULT, PauseResponse.ofNanos(0), vlan, 3, Set.of(3));
            out.add(String.join("\n", LosslessCheck.lines(LosslessCheck.findings(new FabricView(List.of(sw), List.of(nic),
                List.of(cable), ASSUME))).stream().filter(l -> l.contains("trusts PCP")).toList()));
        }
        assertEquals(List.of("a.json: PORT_QOS_MAP|Ethernet16: trusts PCP (dot1p_to_tc_map, no dscp_to_tc_map) on an"
            + " untagged link (no tagged VLAN_MEMBER, h1 sends untagged): every frame lands in TC 0, and the lossless class"
            + " (pfc_enable 3,4) with it", ""), out);
    }

    @Test
    void aNicTrustingPcpOnAnUntaggedLink() throws IOException {
        var sw = view(sn2700("a"));
        Cable cable = new Cable(new End("h1", "eth0"), new End("a", "Ethernet16"), -1, "");
        List<String> out = new ArrayList<>();
        // untagged and not willing; tagged; untagged but willing behind a DSCP-trusting port with LLDP (it takes
        // the port's DSCP application priorities and trusts DSCP, as mlx5 does)
        for (NicQosView qos : List.of(new NicQosView(0x18, io.rocelab.nic.dcb.DcbSettings.Trust.PCP, false),
            new NicQosView(0x18, io.rocelab.nic.dcb.DcbSettings.Trust.PCP, true))) {
            for (int vlan : List.of(0, 100)) {
                NicView nic = new NicView("h1", "eth0", "lab.yaml: h1", qos, PauseResponse.ofNanos(0), vlan, 3, Set.of(3));
                out.add(String.join("\n", LosslessCheck.lines(LosslessCheck.findings(new FabricView(List.of(sw),
                    List.of(nic), List.of(cable), ASSUME))).stream().filter(l -> l.contains("nics.trust")).toList()));
            }
        }
        assertEquals(List.of("lab.yaml: h1: nics.trust: the NIC trusts PCP but its link is untagged: its frames leave at"
            + " priority 0, which the switch's pauses (PFC on 3,4) do not stop", "", "", ""), out);
    }

    @Test
    void aTaggedNicWhosePcpIsNotThePausedPriority() throws IOException {
        var sw = view(sn2700("a"));
        Cable cable = new Cable(new End("h1", "eth0"), new End("a", "Ethernet16"), -1, "");
        for (int pcp : List.of(3, 0)) {
            NicView nic = new NicView("h1", "eth0", "lab.yaml: h1", NicQosView.DEFAULT, PauseResponse.ofNanos(0), 100, pcp, Set.of(3));
            List<String> found = LosslessCheck.lines(LosslessCheck.findings(new FabricView(List.of(sw), List.of(nic),
                List.of(cable), ASSUME)));
            assertEquals(pcp == 3 ? List.of() : List.of(
                "lab.yaml: h1: hosts.h1.pcp: the NIC sends DSCP 3 at priority 0 (its VLAN 100 tag's PCP 0), a:Ethernet16"
                    + " puts it in lossless TC 3 and pauses priority 3 (the other end of the cable): its pauses do not"
                    + " stop the NIC"), found);
        }
    }
}
