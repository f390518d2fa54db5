package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.rocelab.codec.Icrc;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.VxlanFrame;
import io.rocelab.codec.capture.CaptureReader;
import io.rocelab.codec.capture.CaptureRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * labs/vxlan-tenants, run as a user runs it ({@code rocelab lab run vxlan-tenants --seed N}): two
 * tenants with the same overlay addresses in two VNIs over one underlay. Every claim holds at seeds
 * 1 and 2 (uniform DSCP lossless end to end with DCQCN acting through RFC 6040's marks; pipe at one
 * VTEP putting the tenants' RDMA in the lossy class, dropped; a VTEP ignoring CE leaving DCQCN blind
 * and PFC holding the queue); the VTEPs' counters are in counters.json and only theirs; and the
 * capture of the spine's port to leaf1 holds only VXLAN, every inner RoCEv2 packet's ICRC good,
 * which tshark reads as VXLAN then InfiniBand in both VNIs.
 */
class VxlanTenantsLabTest {
    @TempDir
    Path tmp;

    private static final List<String> CLAIMS = List.of(
        "uniform, both tenants' writes arrive whole in their own tenant (the same addresses, two VNIs)",
        "uniform, the RoCE class stays lossless end to end",
        "uniform, the spine marks the outer header and leaf1 carries the marks into the inner packets (RFC 6040); "
            + "both receivers send CNPs",
        "uniform, DCQCN settles the writers at the spine's link, no pause in the second half",
        "pipe at leaf0, the spine sees the tenants' RDMA as lossy, nothing in its lossless queue, and drops it",
        "pipe at leaf0, the writers resend what the spine dropped",
        "leaf1 ignoring CE, the spine marks but no mark reaches a receiver, and no CNP is sent",
        "leaf1 ignoring CE, PFC holds the spine's queue instead, pausing on in the second half with a queue four times "
            + "uniform's, and nothing drops");

    @Test
    void everyClaimHoldsAtTwoSeedsAndTheUnderlayCarriesVxlan() throws Exception {
        for (int seed = 1; seed <= 2; seed++) {
            Path out = tmp.resolve("vxlan-" + seed);
            CliRun run = CliRun.of("lab", "run", "vxlan-tenants", "--seed", Integer.toString(seed), "--out",
                out.toString());
            assertEquals(0, run.exitCode(), "seed " + seed + ":\n" + run.out() + run.err());
            for (String claim : CLAIMS) {
                assertTrue(run.out().contains("PASS  " + claim), claim + " at seed " + seed + ":\n" + run.out());
            }
            assertFalse(run.out().contains("FAIL"), run.out());
            JsonNode runs = new ObjectMapper().readTree(out.resolve("counters.json").toFile()).get("runs");
            JsonNode uniform = runs.get("uniform").get("switches");
            assertTrue(uniform.get("leaf0").get("vxlan_encap").asLong() > 1000, uniform.toString());
            long sent = uniform.get("leaf0").get("vxlan_encap").asLong();
            long took = uniform.get("leaf1").get("vxlan_decap").asLong() + uniform.get("leaf1").get("vxlan_drops").asLong();
            // what leaf0 sent, leaf1 took, but for what was still on the way when the run ended
            assertTrue(took <= sent && took >= sent - 100, "leaf0 sent " + sent + ", leaf1 took " + took);
            assertFalse(uniform.get("spine0").has("vxlan_encap"), "the spine is no VTEP: " + uniform);
            if (seed == 1) {
                checkCapture(out.resolve("uniform-capture.pcapng"));
            }
        }
    }

    /** Every frame is VXLAN to or from a VTEP; the inner RoCEv2 packets' ICRCs are good; tshark agrees. */
    private static void checkCapture(Path pcap) throws Exception {
        ParsedFrame outer = new ParsedFrame();
        ParsedFrame inner = new ParsedFrame();
        Icrc icrc = new Icrc();
        Set<Integer> vnis = new HashSet<>();
        int roce = 0;
        int frames = 0;
        try (CaptureReader reader = CaptureReader.open(pcap)) {
            for (CaptureRecord r; (r = reader.next()) != null; ) {
                try {
                    frames++;
                    assertEquals(null, outer.parse(r.content()));
                    assertTrue(VxlanFrame.innerOffset(outer) > 0, "VXLAN, frame " + frames);
                    vnis.add(VxlanFrame.vni(outer));
                    ByteBuf in = VxlanFrame.inner(outer);
                    if (inner.parse(in) == null && inner.isRoce()) {
                        roce++;
                        assertTrue(icrc.verify(inner), "the inner ICRC of frame " + frames);
                    }
                } finally {
                    r.release();
                }
            }
        }
        assertEquals(Set.of(10100, 10200), vnis);
        assertTrue(roce > 10, "RoCEv2 in VXLAN: " + roce + " of " + frames);
        CliRun decode = CliRun.of("decode", pcap.toString());
        assertEquals(0, decode.exitCode(), "no bad frame: " + decode.out() + decode.err());
        assertTrue(decode.out().lines().anyMatch(l -> l.contains("VXLAN vni 10200 UDP 10.1.0.1:")
            && l.contains("> 10.1.0.2:4789") && l.contains(" RC_RDMA_WRITE_") && l.endsWith("ICRC OK")), decode.out());
        if (!SflowLabTest.tsharkInstalled()) {
            return;
        }
        List<String> protocols = SflowLabTest.tshark(pcap, "-T", "fields", "-e", "frame.protocols", "-e", "vxlan.vni");
        assertEquals(frames, protocols.size());
        assertTrue(protocols.stream().allMatch(l -> l.startsWith("eth:ethertype:ip:udp:vxlan:eth:ethertype:")),
            String.join("\n", protocols));
        for (String vni : List.of("10100", "10200")) {
            assertTrue(protocols.stream().anyMatch(l -> l.startsWith("eth:ethertype:ip:udp:vxlan:eth:ethertype:ip:udp:"
                + "infiniband") && l.endsWith("\t" + vni)), "RoCEv2 in VNI " + vni + ":\n" + String.join("\n", protocols));
        }
        assertEquals(List.of(), SflowLabTest.tshark(pcap, "-Y", "_ws.malformed || _ws.expert.severity == error"),
            "nothing malformed to tshark");
    }
}
