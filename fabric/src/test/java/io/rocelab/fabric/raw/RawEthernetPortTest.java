package io.rocelab.fabric.raw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.rocelab.fabric.time.RealTimeScheduler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Raw ports on the two ends of a real veth pair: what one sends arrives on the other byte for byte
 * and in order, and a port never receives its own transmissions. Needs root and iproute2 (CI has
 * them); elsewhere it skips, loudly, unless CI=true, where it fails.
 */
@Timeout(60)
class RawEthernetPortTest {
    /** IEEE's local experimental EtherType: nothing else on the pair uses it. */
    private static final int ETHERTYPE = 0x88B5;
    private static final byte[] MAC_A = {0x02, 0, 0, 0x52, 0x41, 0x01};
    private static final byte[] MAC_B = {0x02, 0, 0, 0x52, 0x41, 0x02};
    private static final String IP = find("ip");

    private final String tag = Long.toString(ProcessHandle.current().pid() % 100_000);
    private final String vethA = "rlra" + tag;
    private final String vethB = "rlrb" + tag;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void vethPair() throws Exception {
        String why = cannotRun();
        if (why != null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("CI must run the raw port test, but " + why);
            }
            System.err.println("SKIPPED RawEthernetPortTest: " + why);
            Assumptions.abort(why);
        }
        run(IP, "link", "add", vethA, "type", "veth", "peer", "name", vethB);
        for (String v : List.of(vethA, vethB)) {
            Path v6 = Path.of("/proc/sys/net/ipv6/conf", v, "disable_ipv6");
            if (Files.exists(v6)) {
                Files.writeString(v6, "1"); // no router solicitations or MLD reports on the pair
            }
            run(IP, "link", "set", v, "mtu", "9000", "up");
        }
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        if (IP != null && cannotRun() == null) {
            new ProcessBuilder(IP, "link", "del", vethA).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(value = RawBackend.class, names = {"AF_PACKET", "PCAP"})
    void framesArriveByteExactOnTheOtherEndAndNeverBackAtTheSender(RawBackend backend) throws Exception {
        RealTimeScheduler ownerA = open(RealTimeScheduler.start("raw-a"));
        RealTimeScheduler ownerB = open(RealTimeScheduler.start("raw-b"));
        RawEthernetPort a = open(RawEthernetPort.open("a", vethA, ownerA, backend));
        RawEthernetPort b = open(RawEthernetPort.open("b", vethB, ownerB, backend));
        LinkedBlockingQueue<byte[]> atA = collect(a);
        LinkedBlockingQueue<byte[]> atB = collect(b);
        String prefix = backend == RawBackend.PCAP ? "pcap " : "af_packet ";
        assertTrue(a.isUp() && a.describe().startsWith(prefix + vethA), a.describe());
        boolean onLoop = RealTimeScheduler.preciseByDefault();
        assertEquals(onLoop, a.describe().endsWith("received on the owner's epoll loop"), a.describe());

        List<byte[]> sentByB = new ArrayList<>();
        List<byte[]> sentByA = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // sizes from a minimum frame to a jumbo one: 60, 105, ... up to 9014 bytes
            byte[] fb = frame(MAC_A, MAC_B, i, 60 + (i * 45) % 8955);
            sentByB.add(fb);
            b.send(Unpooled.wrappedBuffer(fb.clone()));
            byte[] fa = frame(MAC_B, MAC_A, i, 60 + i);
            sentByA.add(fa);
            a.send(Unpooled.wrappedBuffer(fa.clone()));
        }
        assertSameFrames(sentByB, receive(atA, sentByB.size()), "A receives B's frames byte for byte, in order");
        assertSameFrames(sentByA, receive(atB, sentByA.size()), "B receives A's frames byte for byte, in order");
        Thread.sleep(200);
        assertNull(atA.poll(), "A does not receive its own transmissions");
        assertNull(atB.poll(), "B does not receive its own transmissions");
        assertEquals(200, a.counters().get(RawPortCounter.FRAMES_SENT));
        assertTrue(a.counters().get(RawPortCounter.FRAMES_RECEIVED) >= 200);
        assertEquals(0, a.counters().get(RawPortCounter.RX_DROPPED_BACKLOG) + a.counters().get(RawPortCounter.TX_ERRORS));

        // a VLAN-tagged frame (PCP 3, VID 100) arrives with its tag, which the veth's VLAN offload
        // takes off into the packet's metadata on the way
        byte[] tagged = frame(MAC_A, MAC_B, 9, 128);
        byte[] withTag = new byte[tagged.length + 4];
        System.arraycopy(tagged, 0, withTag, 0, 12);
        withTag[12] = (byte) 0x81;
        withTag[13] = 0x00;
        withTag[14] = (byte) (3 << 5);
        withTag[15] = 100;
        System.arraycopy(tagged, 12, withTag, 16, tagged.length - 12);
        LinkedBlockingQueue<byte[]> tagsAtA = new LinkedBlockingQueue<>();
        a.setReceiver((p, f) -> {
            try {
                tagsAtA.add(ByteBufUtil.getBytes(f));
            } finally {
                f.release();
            }
        });
        b.send(Unpooled.wrappedBuffer(withTag.clone()));
        byte[] gotTagged = null;
        for (byte[] f; gotTagged == null && (f = tagsAtA.poll(10, TimeUnit.SECONDS)) != null; ) {
            if (f.length == withTag.length && f[12] == (byte) 0x81) {
                gotTagged = f;
            }
        }
        assertNotNull(gotTagged, "the tagged frame arrived with its tag");
        assertArrayEquals(withTag, gotTagged);
        atA = collect(a);

        // a frame shorter than Ethernet's minimum arrives padded with zeros, as on a wire
        byte[] arpSized = frame(MAC_A, MAC_B, 7, 42);
        b.send(Unpooled.wrappedBuffer(arpSized.clone()));
        assertArrayEquals(java.util.Arrays.copyOf(arpSized, 60), receive(atA, 1).get(0));

        // a frame over the maximum is counted, not sent
        b.send(Unpooled.wrappedBuffer(frame(MAC_A, MAC_B, 1, RawEthernetPort.DEFAULT_MAX_FRAME_BYTES + 1)));
        assertEquals(1, b.counters().get(RawPortCounter.TX_DROPPED_OVERSIZED));
        a.close();
        assertTrue(waitFor(() -> !a.isUp()), "the link goes down when the port closes");
        a.send(Unpooled.wrappedBuffer(frame(MAC_B, MAC_A, 1, 60)));
        assertEquals(1, a.counters().get(RawPortCounter.TX_DROPPED_CLOSED));
    }

    @ParameterizedTest
    @EnumSource(value = RawBackend.class, names = {"AF_PACKET", "PCAP"})
    void framesTheOwnerSendsGoOutWholeInOrderAndCountedAcrossBatchesAndRingWraps(RawBackend backend) throws Exception {
        RealTimeScheduler ownerA = open(RealTimeScheduler.start("raw-a"));
        RealTimeScheduler ownerB = open(RealTimeScheduler.start("raw-b"));
        RawEthernetPort a = open(RawEthernetPort.open("a", vethA, ownerA, backend));
        RawEthernetPort b = open(RawEthernetPort.open("b", vethB, ownerB, backend));
        LinkedBlockingQueue<byte[]> atA = collect(a);
        // 15 rounds of 200 frames, each sent by one task of B's owner (AF_PACKET: three full send
        // batches and a partial one), 3,000 in all: more than AF_PACKET's receive ring holds, so A's
        // ring wraps. (A round fits libpcap's ring too: 16 MB in slots of the largest frame, about 1,700.)
        int rounds = 15;
        int perRound = 200;
        for (int r = 0; r < rounds; r++) {
            List<byte[]> round = new ArrayList<>();
            for (int i = 0; i < perRound; i++) {
                int seq = r * perRound + i;
                round.add(frame(MAC_A, MAC_B, seq, 60 + (seq * 37) % 1441));
            }
            java.util.Queue<ByteBuf> direct = new java.util.concurrent.ConcurrentLinkedQueue<>();
            ownerB.execute(() -> {
                for (int i = 0; i < round.size(); i++) {
                    byte[] f = round.get(i);
                    if (i % 2 == 0) {
                        b.send(Unpooled.wrappedBuffer(f.clone()));
                    } else {
                        // a direct buffer, as the switch forwards: AF_PACKET sends from its memory
                        ByteBuf d = Unpooled.directBuffer(f.length + 8).writeLong(-1).writeBytes(f).skipBytes(8);
                        direct.add(d);
                        b.send(d);
                    }
                }
            });
            assertSameFrames(round, receive(atA, perRound), "round " + r + " arrives byte for byte, in order");
            assertTrue(waitFor(() -> direct.stream().allMatch(d -> d.refCnt() == 0)), "every sent frame is released");
        }
        assertTrue(waitFor(() -> b.counters().get(RawPortCounter.FRAMES_SENT) == rounds * perRound),
            "frames sent " + b.counters().get(RawPortCounter.FRAMES_SENT));
        assertEquals(0, b.counters().get(RawPortCounter.TX_ERRORS));
        assertEquals(0, a.counters().get(RawPortCounter.RX_DROPPED_SOCKET) + a.counters().get(RawPortCounter.RX_DROPPED_BACKLOG));
        Thread.sleep(200);
        assertNull(atA.poll(), "nothing more arrives");
    }

    @ParameterizedTest
    @EnumSource(value = RawBackend.class, names = {"AF_PACKET", "PCAP"})
    void onAnOwnerThatIsNoEpollLoopAPortReceivesOnAThreadOfItsOwnByteExact(RawBackend backend) throws Exception {
        RealTimeScheduler ownerA = open(RealTimeScheduler.start("raw-a", io.netty.channel.nio.NioIoHandler.newFactory()));
        RealTimeScheduler ownerB = open(RealTimeScheduler.start("raw-b"));
        RawEthernetPort a = open(RawEthernetPort.open("a", vethA, ownerA, backend));
        RawEthernetPort b = open(RawEthernetPort.open("b", vethB, ownerB, backend));
        assertTrue(a.describe().endsWith("a receive thread"), a.describe());
        LinkedBlockingQueue<byte[]> atA = collect(a);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add(frame(MAC_A, MAC_B, i, 60 + (i * 53) % 8955));
        }
        ownerB.execute(() -> sent.forEach(f -> b.send(Unpooled.wrappedBuffer(f.clone()))));
        assertSameFrames(sent, receive(atA, sent.size()), "A receives B's frames byte for byte, in order");
        a.close();
        assertTrue(waitFor(() -> !a.isUp()), "the link goes down when the port closes");
    }

    @ParameterizedTest
    @EnumSource(RawBackend.class)
    void anInterfaceThatDoesNotExistIsNamedInTheError(RawBackend backend) throws Exception {
        RealTimeScheduler owner = open(RealTimeScheduler.start("raw-none"));
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
            () -> RawEthernetPort.open("x", "rlnone" + tag, owner, backend));
        assertTrue(e.getMessage().contains("rlnone" + tag), e.getMessage());
    }

    private <T extends AutoCloseable> T open(T c) {
        opened.add(0, c);
        return c;
    }

    /** Frames of the test's EtherType, as arrays, in arrival order (the buffers are released). */
    private static LinkedBlockingQueue<byte[]> collect(RawEthernetPort port) {
        LinkedBlockingQueue<byte[]> q = new LinkedBlockingQueue<>();
        port.setReceiver((p, f) -> {
            try {
                if (f.readableBytes() >= 14 && f.getUnsignedShort(f.readerIndex() + 12) == ETHERTYPE) {
                    q.add(ByteBufUtil.getBytes(f));
                }
            } finally {
                f.release();
            }
        });
        return q;
    }

    private static List<byte[]> receive(LinkedBlockingQueue<byte[]> q, int n) throws InterruptedException {
        List<byte[]> got = new ArrayList<>();
        while (got.size() < n) {
            byte[] f = q.poll(10, TimeUnit.SECONDS);
            assertNotNull(f, "only " + got.size() + " of " + n + " frames arrived");
            got.add(f);
        }
        return got;
    }

    private static void assertSameFrames(List<byte[]> sent, List<byte[]> got, String what) {
        assertEquals(sent.size(), got.size(), what);
        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(sent.get(i), got.get(i), what + ": frame " + i);
        }
    }

    private static byte[] frame(byte[] dst, byte[] src, int seq, int length) {
        ByteBuf b = Unpooled.buffer(length);
        b.writeBytes(dst).writeBytes(src).writeShort(ETHERTYPE).writeInt(seq);
        byte[] text = ("frame " + seq).getBytes(StandardCharsets.US_ASCII);
        b.writeBytes(text);
        while (b.readableBytes() < length) {
            b.writeByte(b.readableBytes() * 7 + seq);
        }
        return ByteBufUtil.getBytes(b);
    }

    private static boolean waitFor(java.util.function.BooleanSupplier c) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (c.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    private static String cannotRun() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "needs root to make veth pairs and open them (user is " + System.getProperty("user.name") + ")";
        }
        if (IP == null) {
            return "needs ip (iproute2)";
        }
        return null;
    }

    private static String find(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return null;
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }
}
