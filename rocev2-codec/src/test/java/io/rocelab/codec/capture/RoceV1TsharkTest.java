package io.rocelab.codec.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.Unpooled;
import io.rocelab.codec.testkit.RoceV1GoldenFrames;
import io.rocelab.codec.testkit.RoceV1GoldenFrames.Frame;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wireshark reads the hand-built RoCEv1 frames as we do: EtherType 0x8915 dissected as InfiniBand
 * (its {@code dissect_roce}: a GRH first, no LRH), the GRH and BTH fields, the ICRC where we put
 * it, nothing malformed. (tshark 4.0 shows the ICRC but does not check it; our own check of it is
 * {@code RoceV1CodecTest}, against a CRC computed independently.) Skipped, loudly, without tshark.
 */
class RoceV1TsharkTest {
    /** Heuristic payload dissectors that guess at arbitrary bytes after a BTH (as TsharkCapturesTest turns off). */
    private static final List<String> HEURISTICS_OFF = List.of("iser_infiniband", "sdp_infiniband",
            "smb_direct_infiniband", "smcr_infiniband", "rpcrdma_infiniband", "lnet_ib", "fc_infiniband",
            "mellanox_eoib", "eth_over_ib", "drbd_rdma");

    @TempDir
    Path dir;

    @Test
    void tsharkDecodesEachGoldenFrameAsInfinibandOnEthernet() throws Exception {
        String tshark = TsharkInteropTest.tool("tshark");
        Path file = dir.resolve("rocev1.pcap");
        List<Frame> frames = RoceV1GoldenFrames.all();
        try (PcapWriter w = PcapWriter.create(file)) {
            w.addInterface("eth0", LinkType.ETHERNET, 0, 0, null);
            long t = 1_000_000_000L;
            for (Frame g : frames) {
                w.write(0, t += 1000, Unpooled.wrappedBuffer(g.bytes()), null);
            }
        }
        List<String> command = new ArrayList<>(List.of(tshark, "-r", file.toString()));
        for (String h : HEURISTICS_OFF) {
            command.add("--disable-heuristic");
            command.add(h);
        }
        command.addAll(List.of("-T", "fields", "-E", "separator=|", "-e", "frame.protocols",
                "-e", "infiniband.grh.nxthdr", "-e", "infiniband.grh.paylen", "-e", "infiniband.grh.sgid",
                "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.destqp", "-e", "infiniband.bth.psn",
                "-e", "infiniband.invariant.crc", "-e", "vlan.priority", "-e", "_ws.malformed",
                "-e", "_ws.expert.severity"));
        List<String> lines = TsharkInteropTest.run(command.toArray(new String[0]));
        assertEquals(frames.size(), lines.size(), String.join("\n", lines));
        for (int i = 0; i < frames.size(); i++) {
            Frame g = frames.get(i);
            String[] f = lines.get(i).split("\\|", -1);
            String context = g.name() + ": " + lines.get(i);
            assertEquals(g.pcp() >= 0 ? "eth:ethertype:vlan:ethertype:infiniband" : "eth:ethertype:infiniband",
                    f[0].replaceAll(":data$", ""), context);
            assertEquals("27", f[1], context); // NxtHdr 0x1B
            assertEquals(String.valueOf(g.bytes().length - g.bthOffset()), f[2], context);
            assertEquals(String.valueOf(g.opcode()), f[4], context);
            assertEquals(String.valueOf(g.destQp()), Integer.toString(Integer.decode(f[5])), context);
            assertEquals(String.valueOf(g.psn()), f[6], context);
            // tshark shows the ICRC's four bytes as a big-endian number; they travel least-significant first
            int carried = Unpooled.wrappedBuffer(g.bytes()).getIntLE(g.icrcOffset());
            assertEquals(Integer.reverseBytes(carried), (int) Long.decode(f[7]).longValue(), context);
            assertEquals(g.pcp() >= 0 ? String.valueOf(g.pcp()) : "", f[8], context);
            assertEquals("", f[9], context + ": malformed");
            assertEquals("", f[10], context + ": expert info");
        }
        assertEquals("::ffff:10.0.0.1", lines.get(0).split("\\|", -1)[3]);
        System.out.println("tshark decoded " + lines.size() + " RoCEv1 frames; first: " + lines.get(0));
    }
}
