package io.rocelab.lab.captures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Wireshark agrees: tshark decodes every reference capture as RoCEv2 / PFC with no malformed
 * packet. Heuristic dissectors for RDMA payloads (iSER, SDP, SMB Direct, ...) are disabled, since
 * they guess at the pattern bytes in our payloads and raise false alarms. Skips loudly where
 * tshark is not installed; in CI ({@code CI=true}) its absence is a failure, because CI installs it.
 */
class TsharkCapturesTest {
    static final List<String> HEURISTICS_OFF = List.of("iser_infiniband", "sdp_infiniband", "smb_direct_infiniband",
            "smcr_infiniband", "rpcrdma_infiniband", "lnet_ib", "fc_infiniband", "mellanox_eoib", "eth_over_ib",
            "drbd_rdma");
    /**
     * Malformed packets, or expert errors other than the UDP checksum 0 of RoCEv2 over IPv6, which
     * Linux rxe and RoCE NICs send (RFC 6935 allows it for tunnels) and Wireshark flags.
     */
    static final String PROBLEMS = "_ws.malformed || (_ws.expert.severity >= \"error\" && !(ipv6 && udp.checksum == 0))";

    /**
     * @return whether tshark runs here; without it, a loud line (and under {@code CI=true} a failure,
     *         as CI installs it)
     */
    static boolean tsharkAvailable() {
        boolean installed = tsharkInstalled();
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("tshark is not installed, but .ci/run installs it: captures are unchecked");
        }
        if (!installed) {
            System.err.println("SKIPPED: tshark not installed; Wireshark's view of a capture is NOT checked");
        }
        return installed;
    }

    private static boolean tsharkInstalled() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static List<String> tshark(Path file, String... extra) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString()));
        for (String h : HEURISTICS_OFF) {
            cmd.add("--disable-heuristic");
            cmd.add(h);
        }
        cmd.addAll(List.of(extra));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "tshark finished");
        assertEquals(0, p.exitValue(), "tshark exit status for " + file);
        return out.lines().toList();
    }

    @Test
    void tsharkFindsNoMalformedPacket() throws Exception {
        boolean installed = tsharkInstalled();
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("tshark is not installed, but .ci/run installs it: the captures are unchecked");
        }
        if (!installed) {
            System.err.println("SKIPPED TsharkCapturesTest: tshark not installed; Wireshark's view of captures/ "
                    + "is NOT checked (apt-get install tshark)");
        }
        Assumptions.assumeTrue(installed, "tshark not installed: Wireshark's view of captures/ is NOT checked");
        try (Stream<Path> s = Files.list(ReferenceCapturesTest.committed())) {
            for (Path p : s.filter(f -> f.toString().matches(".*\\.pcap(ng)?$")).sorted().toList()) {
                List<String> all = tshark(p, "-T", "fields", "-e", "frame.protocols");
                assertTrue(!all.isEmpty(), p + " has frames");
                for (String protocols : all) {
                    assertTrue(protocols.contains("infiniband") || protocols.contains("arp")
                            || protocols.contains("macc"), p + ": unexpected dissection " + protocols);
                }
                List<String> problems = tshark(p, "-Y", PROBLEMS);
                assertEquals(List.of(), problems, p + ": tshark reports problems");
            }
        }
    }
}
