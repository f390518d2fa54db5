package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rocev1 lab as a user runs it, over two seeds: RoCEv1 bridged inside a leaf's VLAN, dropped at
 * the router MAC across a routed hop (NO_L3_HEADER) until its QP runs out of retries, RoCEv2 routed
 * and spread over the spines; its capture read by {@code rocelab decode} (every ICRC good, both
 * encapsulations) and by tshark, which shows RoCEv1 as {@code eth:ethertype:vlan:ethertype:infiniband}
 * and RoCEv2 as {@code eth:ethertype:vlan:ethertype:ip:udp:infiniband}. And the lab file's mistakes.
 */
class RoceV1LabTest {
    /** Payload heuristics tshark would try on the pattern bytes after a BTH (as TsharkCapturesTest turns off). */
    private static final List<String> HEURISTICS_OFF = List.of("iser_infiniband", "sdp_infiniband",
        "smb_direct_infiniband", "smcr_infiniband", "rpcrdma_infiniband", "lnet_ib", "fc_infiniband", "mellanox_eoib",
        "eth_over_ib", "drbd_rdma");

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(strings = {"1", "2"})
    void roceV1StaysInItsL2DomainAndRoceV2RoutesAndSpreads(String seed) throws Exception {
        Path out = tmp.resolve("rocev1-" + seed);
        CliRun run = CliRun.of("lab", "run", "rocev1", "--seed", seed, "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        for (String claim : List.of("RoCEv1 inside the leaf's VLAN is bridged and completes, every byte, no error",
                "RoCEv1 across the routed hop never arrives; its QP runs out of retries (IBV_WC_RETRY_EXC_ERR)",
                "the leaf drops it at the router MAC, not IP (NO_L3_HEADER), on h0's port, and drops nothing else",
                "RoCEv2 is routed across the spines and completes, no error",
                "RoCEv2's QPs (a UDP source port each) are spread over both spines")) {
            assertTrue(run.out().contains("PASS  " + claim), claim + " in\n" + run.out());
        }
        assertFalse(run.out().contains("FAIL"), run.out());

        Path capture = out.resolve("capture.pcapng");
        CliRun decode = CliRun.of("decode", capture.toString());
        assertEquals(0, decode.exitCode(), "every RoCE frame well-formed with a good ICRC: " + decode.out());
        // a frame's line starts with its number; the last line is the totals
        List<String> v1 = decode.out().lines().filter(l -> l.matches("\\s*\\d+\\s+\\d+\\.\\d{9} .*") && l.contains("RoCEv1 ")).toList();
        assertTrue(decode.out().contains(" RoCEv1 ("), "the totals count RoCEv1 apart: " + decode.out());
        assertFalse(v1.isEmpty(), decode.out());
        for (String l : v1) {
            assertTrue(l.contains("vlan 100 pcp 3, RoCEv1 ::ffff:") && l.contains("ICRC OK"),
                "RoCEv1 at PCP 3 between IPv4-mapped GIDs: " + l);
        }

        if (!tsharkInstalled()) {
            System.err.println("SKIPPED: tshark not installed; Wireshark's view of RoCEv1 and RoCEv2 is NOT checked");
            return;
        }
        List<String> command = new ArrayList<>(List.of("tshark", "-n", "-r", capture.toString()));
        for (String h : HEURISTICS_OFF) {
            command.add("--disable-heuristic");
            command.add(h);
        }
        command.addAll(List.of("-T", "fields", "-E", "separator=|", "-e", "frame.protocols", "-e", "eth.type",
            "-e", "infiniband.grh.nxthdr", "-e", "udp.dstport", "-e", "vlan.priority", "-e", "_ws.malformed"));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, text);
        Map<String, Integer> stacks = new TreeMap<>();
        for (String line : text.lines().toList()) {
            String[] f = line.split("\\|", -1);
            String stack = f[0].replaceAll(":data$", "");
            stacks.merge(stack, 1, Integer::sum);
            assertEquals("", f[5], "not malformed: " + line);
            if (stack.endsWith(":infiniband")) {
                assertEquals("3", f[4], "RoCE at PCP 3: " + line);
            }
            if (stack.equals("eth:ethertype:vlan:ethertype:infiniband")) {
                assertEquals("27", f[2], "GRH next header 0x1B: " + line);
            }
            if (stack.equals("eth:ethertype:vlan:ethertype:ip:udp:infiniband")) {
                assertEquals("4791", f[3], line);
            }
        }
        assertTrue(stacks.getOrDefault("eth:ethertype:vlan:ethertype:infiniband", 0) > 0, stacks.toString());
        assertTrue(stacks.getOrDefault("eth:ethertype:vlan:ethertype:ip:udp:infiniband", 0) > 0, stacks.toString());
        assertEquals(v1.size(), stacks.get("eth:ethertype:vlan:ethertype:infiniband"),
            "tshark and rocelab decode see the same RoCEv1 frames: " + stacks);
    }

    @Test
    void aRoceV1FlowNeedsRoceV1GidsOnBothNics() throws IOException {
        Path f = tmp.resolve("bad-v1.yaml");
        Files.writeString(f, """
            name: bad-v1
            duration: 100us
            topology:
              hosts: [h0, {name: h1, roce-v1: true}, h2]
              switches: [{name: leaf0, ports: 3}]
              links:
                - {a: h0, b: leaf0:Ethernet0}
                - {a: h1, b: leaf0:Ethernet4}
                - {a: h2, b: leaf0:Ethernet8}
            flows:
              - {name: a, from: h1, to: h0, roce: v1}
              - {name: b, from: h1, to: h2, roce: v3}
              - {name: c, from: h1, to: h0, roce: v1, reconnect: 1ms}
            """);
        CliRun check = CliRun.of("lab", "check", f.toString());
        assertEquals(2, check.exitCode(), check.out() + check.err());
        assertTrue(check.err().contains("flows[0].roce: roce: v1 needs RoCEv1 GIDs on both NICs; 'h0' has RoCEv2 GIDs"
            + " only"), check.err());
        assertTrue(check.err().contains("flows[1].roce: roce is v1 (IBA Annex A16, EtherType 0x8915) or v2 (UDP 4791),"
            + " not 'v3'"), check.err());
        assertTrue(check.err().contains("flows[2].roce: a flow with reconnect connects through rdma_cm"), check.err());
        // and c's hosts: one line per mistake, every mistake at once
        assertEquals(4, check.err().strip().lines().count(), check.err());
        assertFalse(check.err().contains("Exception"), check.err());
    }

    private static boolean tsharkInstalled() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
