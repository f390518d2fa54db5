package io.rocelab.lab.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.capture.CaptureRecord;
import io.rocelab.codec.testkit.RxeCaptures;
import io.rocelab.lab.cli.CommandLines;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay of {@link RxeRelayInteropTest} on its own, with no VM: plain UDP sockets stand in for
 * the two qemus and replay frames that real rxe sent (the codec's {@code vectors/rxe} captures).
 * Runs everywhere, so the relay's own logic is checked even where qemu is missing.
 */
class ReencodingRelayTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** Two fake qemus: left sends into the relay's left port, right receives what comes out. */
    private static final class FakeVms implements AutoCloseable {
        final DatagramSocket left = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        final DatagramSocket right = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));

        FakeVms() throws IOException {
            left.setSoTimeout(5000);
            right.setSoTimeout(5000);
        }

        byte[] throughRelay(ReencodingRelay relay, byte[] frame, boolean leftToRight) throws IOException {
            DatagramSocket from = leftToRight ? left : right;
            DatagramSocket to = leftToRight ? right : left;
            int port = leftToRight ? relay.leftPort() : relay.rightPort();
            from.send(new DatagramPacket(frame, frame.length, LOOPBACK, port));
            DatagramPacket p = new DatagramPacket(new byte[10_000], 10_000);
            to.receive(p);
            byte[] out = new byte[p.getLength()];
            System.arraycopy(p.getData(), p.getOffset(), out, 0, out.length);
            return out;
        }

        @Override
        public void close() {
            left.close();
            right.close();
        }
    }

    private static List<byte[]> framesOf(String captureName) {
        Path file = RxeCaptures.files().stream().filter(p -> p.getFileName().toString().equals(captureName))
                .findFirst().orElseThrow(() -> new AssertionError(captureName + " not among the rxe captures"));
        List<byte[]> frames = new ArrayList<>();
        for (CaptureRecord r : RxeCaptures.read(file)) {
            try {
                frames.add(ByteBufUtil.getBytes(r.content()));
            } finally {
                r.release();
            }
        }
        return frames;
    }

    @Test
    void forwardsRealRxeFramesReencodedToTheSameBytesInBothDirections(@TempDir Path dir) throws Exception {
        List<byte[]> frames = new ArrayList<>(framesOf("rc_pingpong.pcap"));
        frames.addAll(framesOf("rc_pingpong_ipv6.pcap"));
        frames.addAll(framesOf("atomic_bw.pcap"));
        ReencodingRelay.Snapshot s;
        Path pcap = dir.resolve("relay.pcap");
        try (FakeVms vms = new FakeVms(); ReencodingRelay relay = new ReencodingRelay(vms.left.getLocalPort(),
                vms.right.getLocalPort(), pcap)) {
            for (int i = 0; i < frames.size(); i++) {
                byte[] frame = frames.get(i);
                assertArrayEquals(frame, vms.throughRelay(relay, frame, i % 2 == 0), "frame " + i);
            }
            s = relay.stats();
        }
        long roce = frames.stream().filter(ReencodingRelayTest::isRoce).count();
        assertTrue(roce > 100, "the captures hold RoCEv2 frames: " + roce);
        assertEquals(frames.size(), s.frames(), s.toString());
        assertEquals(roce, s.roce(), s.toString());
        assertEquals(roce, s.identical(), s.toString());
        assertEquals(0, s.mismatches() + s.badIcrc() + s.malformed() + s.errors(), s.toString());
        assertTrue(s.roceIpv6() > 0, s.toString());
        assertTrue(s.count("IPv4 RC_FETCH_ADD") > 0 && s.count("IPv6 RC_SEND_") > 0, s.toString());
        assertEquals(0, decode(pcap), "rocelab decode of the relay's capture");
    }

    @Test
    void aBadIcrcIsReportedAndTheFrameLeavesWithTheCodecsIcrc(@TempDir Path dir) throws Exception {
        byte[] good = framesOf("rc_pingpong.pcap").stream().filter(ReencodingRelayTest::isRoce).findFirst()
                .orElseThrow();
        byte[] bad = good.clone();
        bad[bad.length - 1] ^= 0x5A;
        ReencodingRelay.Snapshot s;
        byte[] out;
        try (FakeVms vms = new FakeVms(); ReencodingRelay relay = new ReencodingRelay(vms.left.getLocalPort(),
                vms.right.getLocalPort(), dir.resolve("relay.pcap"))) {
            out = vms.throughRelay(relay, bad, false);
            s = relay.stats();
        }
        assertArrayEquals(good, out, "the re-encoded frame carries the computed ICRC");
        assertEquals(1, s.badIcrc(), s.toString());
        assertEquals(1, s.mismatches(), s.toString());
        assertTrue(s.samples().stream().anyMatch(x -> x.startsWith("bad ICRC")), s.toString());
        assertTrue(s.samples().stream().anyMatch(x -> x.contains("differs from rxe's at byte " + (good.length - 1))),
                s.toString());
    }

    @Test
    void nonRoceFramesPassUnchangedAndMalformedRoceIsCountedNotDropped(@TempDir Path dir) throws Exception {
        byte[] arp = framesOf("rc_pingpong.pcap").stream().filter(f -> (f[12] & 0xFF) == 0x08 && f[13] == 0x06)
                .findFirst().orElseThrow(() -> new AssertionError("no ARP frame in rc_pingpong.pcap"));
        byte[] roce = framesOf("rc_pingpong.pcap").stream().filter(ReencodingRelayTest::isRoce).findFirst()
                .orElseThrow();
        byte[] truncatedBth = roce.clone();
        // UDP length 8 + 4: shorter than BTH + ICRC
        int udp = 14 + 20;
        truncatedBth[udp + 4] = 0;
        truncatedBth[udp + 5] = 12;
        ReencodingRelay.Snapshot s;
        try (FakeVms vms = new FakeVms(); ReencodingRelay relay = new ReencodingRelay(vms.left.getLocalPort(),
                vms.right.getLocalPort(), dir.resolve("relay.pcap"))) {
            assertArrayEquals(arp, vms.throughRelay(relay, arp, true));
            assertArrayEquals(truncatedBth, vms.throughRelay(relay, truncatedBth, true));
            s = relay.stats();
        }
        assertEquals(2, s.frames(), s.toString());
        assertEquals(1, s.roce(), s.toString());
        assertEquals(1, s.malformed(), s.toString());
        assertEquals(0, s.identical(), s.toString());
    }

    private static boolean isRoce(byte[] frame) {
        ParsedFrame p = new ParsedFrame();
        ByteBuf b = Unpooled.wrappedBuffer(frame);
        try {
            return p.parse(b) == null && p.isRoce();
        } finally {
            b.release();
        }
    }

    private static int decode(Path pcap) {
        var cl = CommandLines.create();
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        return cl.execute("decode", pcap.toString());
    }
}
