package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.lab.run.ShippedLabs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric check as a user runs it: {@code rocelab lab check --lossless} over every shipped lab and a
 * lab file of one's own, {@code rocelab switch check} over labs/sonic's real T1 files and over two
 * switches cabled by {@code --link} or by their DEVICE_NEIGHBOR tables; one line per finding, a count,
 * exit 1 when something is found, 0 when clean, 2 for a mistake.
 */
class LosslessCheckCommandTest {
    private static final Path SONIC = Path.of(System.getProperty("rocelab.root", "..")).resolve("labs/sonic");
    private static final String PFC_WD = "PFC_WD|Ethernet0,Ethernet4,Ethernet8";

    @TempDir
    Path tmp;

    /** The finding lines of a check's output: between the ok line and the count. */
    private static List<String> findings(CliRun r) {
        List<String> lines = new ArrayList<>(Arrays.asList(r.out().split("\n")));
        if (!lines.isEmpty() && lines.get(0).contains(": ok: ")) {
            lines.remove(0);
        }
        lines.remove(lines.size() - 1);
        return lines;
    }

    @Test
    void everyShippedLabPassesButTheVariantsBuiltToShowAMisconfiguration() {
        // lab -> the start of each finding line (FILE: variant: switch: KEY), in order
        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("pfc-headroom", List.of(
            // a 5 m headroom (the switch was not told the length) on links whose delay is 1 km of cable
            "pfc-headroom: untold: leaf0: BUFFER_PG|Ethernet4,Ethernet8,Ethernet12,Ethernet16|3"));
        expected.put("pfc-storm", List.of(
            "pfc-storm: no_watchdog: leaf0: PFC_WD|Ethernet0,Ethernet4,Ethernet8,Ethernet12,Ethernet16,Ethernet20",
            "pfc-storm: no_watchdog: spine0: PFC_WD|Ethernet0"));
        expected.put("pfc-storm-spreading", List.of(
            "pfc-storm-spreading: no_watchdog: leaf0: " + PFC_WD,
            "pfc-storm-spreading: no_watchdog: leaf1: " + PFC_WD,
            "pfc-storm-spreading: no_watchdog: spine0: PFC_WD|Ethernet0,Ethernet4"));
        expected.put("pfc-deadlock", List.of(
            "pfc-deadlock: no_watchdog: s0: " + PFC_WD, "pfc-deadlock: no_watchdog: s1: " + PFC_WD,
            "pfc-deadlock: no_watchdog: s2: " + PFC_WD, "pfc-deadlock: no_watchdog: s3: " + PFC_WD,
            "pfc-deadlock: no_watchdog: s4: " + PFC_WD));
        // a tenant's port that does not honour PFC for the RoCE priority: its DSCP 26 is in TC 3 without PFC
        expected.put("pfc-attack", List.of(
            "pfc-attack: untrusted: leaf0: PORT_QOS_MAP|Ethernet16"));
        // untrusted tenant ports: their DSCP 26 lands in TC 0, and so do the CNPs their receivers send
        expected.put("trust-boundary", List.of(
            "trust-boundary: untrusted: leaf0: PORT_QOS_MAP|Ethernet8,Ethernet12,Ethernet16,Ethernet20",
            "trust-boundary: untrusted: leaf0: QUEUE|Ethernet8,Ethernet12,Ethernet16,Ethernet20|0"));
        // NICs whose PFC is on 4 do not stop for the leaf's pauses on 3; h1 trusting PCP sends at priority 0
        // (the dcbx variant's NICs are set as wrong but take the leaf's settings over LLDP: no finding)
        expected.put("dcbx-mismatch", List.of(
            "dcbx-mismatch: pfc_on_4: h0: nics.pfc", "dcbx-mismatch: pfc_on_4: h1: nics.pfc",
            "dcbx-mismatch: pfc_on_4: h2: nics.pfc", "dcbx-mismatch: pfc_on_4: h3: nics.pfc",
            "dcbx-mismatch: pfc_on_4: h4: nics.pfc", "dcbx-mismatch: trust_pcp: h1: nics.trust"));
        // a VTEP in pipe mode hides the lossless DSCP from the underlay; one ignoring the outer ECN leaves DCQCN blind
        expected.put("vxlan-tenants", List.of(
            "vxlan-tenants: pipe_one_vtep: leaf0: VXLAN_TUNNEL|vtep",
            "vxlan-tenants: decap_ignores_ce: leaf1: VXLAN_TUNNEL|vtep"));
        List<String> names = ShippedLabs.names();
        assertTrue(names.size() >= 20 && names.containsAll(expected.keySet()), "shipped labs: " + names);
        List<String> wrong = new ArrayList<>();
        for (String lab : names) {
            CliRun r = CliRun.of("lab", "check", lab, "--lossless");
            List<String> want = expected.getOrDefault(lab, List.of());
            List<String> got = findings(r);
            boolean ok = r.exitCode() == (want.isEmpty() ? 0 : 1) && got.size() == want.size()
                && (want.isEmpty() ? r.out().endsWith(CLEAN) || r.out().endsWith(LOSSY)
                    : r.out().endsWith(want.size() + (want.size() == 1 ? " finding" : " findings") + "\n"));
            for (int i = 0; ok && i < want.size(); i++) {
                ok = got.get(i).startsWith(want.get(i) + ": ");
            }
            if (!ok) {
                wrong.add(lab + " (exit " + r.exitCode() + "):\n" + r.out() + r.err());
            }
        }
        assertEquals(List.of(), wrong);
        // a lab whose fabric has PFC somewhere, and one whose switch configs give none: no lossless class to check
        assertTrue(CliRun.of("lab", "check", "pfc-basics", "--lossless").out().endsWith(CLEAN));
        assertTrue(CliRun.of("lab", "check", "silent-member-failure", "--lossless").out().endsWith(LOSSY));
    }

    private static final String CLEAN = "\n0 findings: the lossless class is configured alike along its paths\n";
    private static final String LOSSY = "\n0 findings: no port has PFC, a lossy fabric has no lossless class to check\n";

    @Test
    void theHeadroomFindingNamesTheCableAndTheNicsResponse() {
        CliRun r = CliRun.of("lab", "check", "pfc-headroom", "--lossless");
        assertEquals("pfc-headroom: untold: leaf0: BUFFER_PG|Ethernet4,Ethernet8,Ethernet12,Ethernet16|3: headroom (xoff)"
            + " 72704 of 'pg_lossless_100000_5m_profile' is below the 315392 bytes SONiC's headroom formula gives for"
            + " 100 Gb/s, 1000 m of cable (the link's delay, 5us), MTU 9100 and the NIC's pause response (ieee: 25216"
            + " bytes)", findings(r).get(0));
    }

    @Test
    void aLabOfOnesOwn() throws IOException {
        String lab = """
            name: mine
            duration: 1ms
            topology:
              hosts: ["h[0-4]"]
              switches: [{name: leaf0, ports: 5}]
              links:
                - {a: h0, b: leaf0:Ethernet0}
                - {a: h1, b: leaf0:Ethernet4}
                - {a: h2, b: leaf0:Ethernet8}
                - {a: h3, b: leaf0:Ethernet12}
                - {a: h4, b: leaf0:Ethernet16}
            qos:
              profile: lossless
              pfc: {xon: 19456, xoff: 30720}   # SONiC's static profile: for peers that stop within 3.8 KiB
            nics:
              cc: dcqcn
              ecn: ECN
            flows:
              - {name: incast, from: "h[1-2]", to: h0}
            """;
        Path ieee = tmp.resolve("mine.yaml");
        Files.writeString(ieee, lab.replace("  ecn: ECN\n", ""));
        CliRun r = CliRun.of("lab", "check", ieee.toString(), "--lossless");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertEquals(List.of(ieee + ": leaf0: BUFFER_PG|Ethernet0,Ethernet4,Ethernet8,Ethernet12,Ethernet16|3: headroom (xoff) 30720 of"
            + " 'pg_lossless_profile' is below the 72704 bytes SONiC's headroom formula gives for 100 Gb/s, 5 m of cable,"
            + " MTU 9100 and the NIC's pause response (ieee: 25216 bytes)"), findings(r));
        assertTrue(r.out().endsWith("\n1 finding\n"), r.out());
        // NICs that stop at once need no more than the static profile; a Kmin above the pause point of an
        // incast of 2 (the lab's: h1 and h2 to h0; 2 x (19456 + 3302912 / 3) = 2.24 MB) is found, and --incast
        // changes the assumption: 4 senders queue 4 x (19456 + 3302912 / 5) = 2.72 MB before they pause
        Path quick = tmp.resolve("quick.yaml");
        Files.writeString(quick, lab.replace("  ecn: ECN\n", "  pause-response: 0\n")
            .replace("profile: lossless\n", "profile: lossless\n  ecn: {kmin: 2500KB, kmax: 4MB, pmax: 5%}\n"));
        r = CliRun.of("lab", "check", quick.toString(), "--lossless");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        List<String> got = findings(r);
        assertEquals(1, got.size(), r.out());
        assertTrue(got.get(0).startsWith(quick + ": leaf0: WRED_PROFILE|AZURE_LOSSLESS: green_min_threshold 2500000"
            + " (Kmin) is at or above the "), got.get(0));
        assertTrue(got.get(0).endsWith("assumed an incast of 2 (the lab's largest fan-in: 2 senders to h0; --incast N to"
            + " change it)"), got.get(0));
        r = CliRun.of("lab", "check", quick.toString(), "--lossless", "--incast", "4");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals(2, CliRun.of("lab", "check", quick.toString(), "--lossless", "--incast", "0").exitCode());
        // without --lossless the check is the file's alone, and --incast is a mistake there
        assertEquals(0, CliRun.of("lab", "check", ieee.toString()).exitCode());
        CliRun alone = CliRun.of("lab", "check", ieee.toString(), "--incast", "4");
        assertEquals(2, alone.exitCode());
        assertEquals("", alone.out());
    }

    @Test
    void theRealT1FilesThroughSwitchCheck() {
        CliRun r = CliRun.of("switch", "check", SONIC.resolve("mellanox-sn2700-t1.json").toString(),
            SONIC.resolve("arista-7060cx-32s-t1.json").toString());
        assertEquals(1, r.exitCode(), r.out() + r.err());
        String ports = "Ethernet0,Ethernet4,Ethernet8,Ethernet12,Ethernet16,Ethernet20,Ethernet24,Ethernet28";
        String cnp = ": QUEUE|" + ports + "|6: CNPs (DSCP 48, TC 6) leave by queue 6, DWRR weight 14 (scheduler.0),"
            + " not strict above the lossless class's queue 3, DWRR weight 15 (scheduler.1): they wait behind the"
            + " congestion they report";
        // SONiC's T1 template schedules queue 6 as DWRR beside the lossless queues: nothing else is found
        assertEquals(SONIC.resolve("mellanox-sn2700-t1.json") + cnp + "\n" + SONIC.resolve("arista-7060cx-32s-t1.json")
            + cnp + "\n2 findings\n", r.out());
        // a NIC at IEEE 802.3's bound on every port: the 40 m profiles are short of it
        r = CliRun.of("switch", "check", SONIC.resolve("mellanox-sn2700-t1.json").toString(), "--peer-response", "ieee");
        assertTrue(r.out().contains("BUFFER_PG|Ethernet16,Ethernet20,Ethernet24,Ethernet28|3: headroom (xoff) 38912"),
            r.out());
    }

    private Path copy(String hostname, java.util.function.Consumer<ObjectNode> edit) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(Files.readString(SONIC.resolve("mellanox-sn2700-t1.json")));
        ((ObjectNode) root.with("DEVICE_METADATA").with("localhost")).put("hostname", hostname);
        edit.accept(root);
        Path f = tmp.resolve(hostname + ".json");
        Files.writeString(f, root.toString());
        return f;
    }

    @Test
    void twoSwitchesCabledByLinkOrByDeviceNeighbor() throws IOException {
        Path a = copy("leaf0", r -> { });
        Path b = copy("leaf1", r -> ((ObjectNode) r.with("PORT_QOS_MAP").with("Ethernet0")).put("pfc_enable", "3"));
        String expected = a + ": PORT_QOS_MAP|Ethernet0: pfc_enable 3,4 here, 3 at leaf1:Ethernet0 (the other end of the"
            + " cable)";
        CliRun r = CliRun.of("switch", "check", a.toString(), b.toString(), "--link", "leaf0:Ethernet0=leaf1:Ethernet0");
        assertEquals(1, r.exitCode(), r.err());
        assertTrue(r.out().startsWith(expected + "\n"), r.out());
        // without the cable the two ends are not compared
        r = CliRun.of("switch", "check", a.toString(), b.toString());
        assertTrue(!r.out().contains("pfc_enable 3,4 here"), r.out());
        // SONiC's DEVICE_NEIGHBOR is the cabling when it names the other file's switch
        Path a2 = copy("leaf0", x -> ((ObjectNode) x.with("DEVICE_NEIGHBOR").with("Ethernet0")).put("name", "leaf1")
            .put("port", "Ethernet0"));
        r = CliRun.of("switch", "check", a2.toString(), b.toString());
        assertTrue(r.out().startsWith(a2 + ": PORT_QOS_MAP|Ethernet0: pfc_enable 3,4 here, 3 at leaf1:Ethernet0"), r.out());
    }

    @Test
    void mistakesAreOneLineEachAndExit2() throws IOException {
        Path a = copy("leaf0", r -> { });
        CliRun r = CliRun.of("switch", "check", a.toString(), tmp.resolve("none.json").toString());
        assertEquals(2, r.exitCode());
        assertEquals("switch check: " + tmp.resolve("none.json") + ": cannot read it (no such file)\n", r.err());
        assertEquals("", r.out());
        r = CliRun.of("switch", "check", a.toString(), "--link", "leaf0:Ethernet0=spine9:Ethernet4");
        assertEquals(2, r.exitCode());
        assertEquals("switch check: --link leaf0:Ethernet0=spine9:Ethernet4: no switch 'spine9' among the files (their"
            + " DEVICE_METADATA hostnames: leaf0)\n", r.err());
        r = CliRun.of("switch", "check", a.toString(), "--link", "leaf0:Ethernet0=leaf0:Ethernet99", "--link", "oops");
        assertEquals(2, r.exitCode());
        assertEquals("switch check: --link leaf0:Ethernet0=leaf0:Ethernet99: switch 'leaf0' (" + a + ") has no port"
            + " 'Ethernet99'\nswitch check: --link oops: write SW_A:PORT=SW_B:PORT, e.g. leaf0:Ethernet0=spine0:Ethernet4\n",
            r.err());
    }
}
