package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.oob.BwResult;
import io.rocelab.perftest.testkit.ByteCursor;
import io.rocelab.perftest.testkit.Pcap;
import io.rocelab.perftest.testkit.RoceRequest;
import io.rocelab.perftest.testkit.TcpConversation;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TCP exchanges of real perftest runs between two rxe VMs, read with rocelab's decoders: every
 * message must parse, carry the values the RoCEv2 traffic in the same capture confirms, and
 * re-encode to the captured bytes.
 */
class CapturedPerftestExchangeTest {

    /** The messages each side writes, in order, for each captured tool. */
    enum Message { VERSION, CYCLE_BUFFER, CACHE_LINE, MTU, KEYS, REPORT, DONE }

    static Stream<Arguments> captures() {
        List<Message> bwRdma = script(3, true, 1, true);
        return Stream.of(
                Arguments.of("write_bw.pcap", bwRdma, 4096L, 100L, 1),
                Arguments.of("read_bw.pcap", bwRdma, 4096L, 100L, 0x80),
                Arguments.of("atomic_bw.pcap", bwRdma, 8L, 20L, 0x80),
                Arguments.of("send_bw.pcap", script(4, false, 1, true), 4096L, 100L, 1),
                Arguments.of("write_lat.pcap", script(4, false, 0, false), 64L, 20L, 1));
    }

    /**
     * The setup messages, {@code setupKeys} key exchanges, then optionally a barrier and the
     * report, then {@code closeKeys} closing key exchanges, then "done" when {@code done}.
     */
    private static List<Message> script(int setupKeys, boolean report, int closeKeys, boolean done) {
        List<Message> s = new ArrayList<>(List.of(Message.VERSION, Message.CYCLE_BUFFER, Message.CACHE_LINE,
                Message.MTU));
        for (int i = 0; i < setupKeys; i++) {
            s.add(Message.KEYS);
        }
        if (report) {
            s.add(Message.KEYS);
            for (int i = 0; i < 5; i++) {
                s.add(Message.REPORT);
            }
        }
        for (int i = 0; i < closeKeys; i++) {
            s.add(Message.KEYS);
        }
        if (done) {
            s.add(Message.DONE);
        }
        return s;
    }

    /** What one side sent, decoded. */
    static final class Side {
        PerftestVersion version;
        int cycleBuffer;
        int cacheLine;
        int mtu;
        final List<KeyRecord> keys = new ArrayList<>();
        final List<byte[]> reportFields = new ArrayList<>();
        boolean done;
    }

    private static Side decode(byte[] stream, List<Message> script, List<Integer> writeSizes) {
        ByteCursor c = new ByteCursor(stream);
        Side s = new Side();
        List<Integer> sizes = new ArrayList<>();
        for (Message m : script) {
            switch (m) {
                case VERSION: {
                    byte[] b = c.take(PerftestVersion.WIRE_SIZE);
                    s.version = PerftestVersion.decode(b);
                    assertArrayEquals(b, s.version.encode());
                    sizes.add(b.length);
                    break;
                }
                case CYCLE_BUFFER:
                case CACHE_LINE: {
                    byte[] b = c.take(SystemData.FIELD_SIZE);
                    int v = SystemData.decodeField(m.name(), b);
                    assertArrayEquals(b, SystemData.encodeField(v));
                    if (m == Message.CYCLE_BUFFER) {
                        s.cycleBuffer = v;
                    } else {
                        s.cacheLine = v;
                    }
                    sizes.add(b.length);
                    break;
                }
                case MTU: {
                    byte[] b = c.take(MtuMessage.wireSize(PerftestVersion.rocelab()));
                    s.mtu = MtuMessage.decode(b);
                    assertArrayEquals(b, MtuMessage.encode(Mtu.ofIbvValue(s.mtu), s.version));
                    sizes.add(b.length);
                    break;
                }
                case KEYS: {
                    byte[] b = c.take(KeyRecord.WIRE_SIZE);
                    KeyRecord k = KeyRecord.decode(b);
                    assertArrayEquals(b, k.encode());
                    s.keys.add(k);
                    sizes.add(b.length);
                    break;
                }
                case REPORT: {
                    byte[] b = c.take(8);
                    s.reportFields.add(b);
                    sizes.add(b.length);
                    break;
                }
                case DONE: {
                    byte[] b = c.take(DoneMessage.WIRE_SIZE);
                    DoneMessage.check(b);
                    s.done = true;
                    sizes.add(b.length);
                    break;
                }
                default:
                    throw new AssertionError(m);
            }
        }
        assertEquals(0, c.remaining(), "bytes left after the last message");
        assertEquals(writeSizes, sizes, "each message is one write");
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void everyMessageDecodesAndReencodes(String file, List<Message> script, long size, long iterations,
                                         int outReads) {
        List<Pcap.Frame> frames = Pcap.read(file);
        TcpConversation tcp = TcpConversation.of(frames, OobServer.DEFAULT_PORT);
        Side client = decode(tcp.clientBytes(), script, tcp.clientWriteSizes());
        Side server = decode(tcp.serverBytes(), script, tcp.serverWriteSizes());

        for (Side s : List.of(client, server)) {
            assertEquals("6.06", s.version.text());
            assertEquals(4096, s.cycleBuffer);
            assertEquals(64, s.cacheLine);
            assertEquals(Mtu.MTU_1024.ibvValue(), s.mtu);
            // the same record every time: a barrier re-sends what the first exchange sent
            assertTrue(s.keys.stream().allMatch(k -> k.equals(s.keys.get(0))), "records differ between exchanges");
            KeyRecord k = s.keys.get(0);
            assertEquals(0, k.lid(), "RoCE has no LID");
            assertEquals(0, k.srqn());
            assertEquals(outReads, k.outReads());
        }
        assertEquals(Gid.of(tcp.client), client.keys.get(0).gid(), "the client's GID is its IP address");
        assertEquals(Gid.of(tcp.server), server.keys.get(0).gid(), "the server's GID is its IP address");
        assertEquals(script.contains(Message.DONE), client.done);

        if (script.contains(Message.REPORT)) {
            BwResult r = BwReportMessage.decode(client.reportFields.toArray(new byte[0][]));
            assertEquals(size, r.size());
            assertEquals(iterations, r.iterations());
            // average MB/s and message rate come from the same time: average = rate * size * 1e6 / 2^20
            assertEquals(r.messageRate() * size * 1e6 / 1048576, r.average(), r.average() * 1e-12);
            assertTrue(r.peak() >= r.average(), "peak below average");
            byte[][] again = BwReportMessage.encode(r, server.version);
            for (int i = 0; i < again.length; i++) {
                assertArrayEquals(client.reportFields.get(i), again[i]);
            }
        }

        crossCheckWithRoceTraffic(file, frames, tcp, client.keys.get(0), server.keys.get(0), size);
    }

    /**
     * The key records predict the RoCEv2 packets: requests go to the peer's QPN, start at the
     * sender's PSN and — for RDMA — carry the peer's rkey and an address in the peer's buffer.
     */
    private static void crossCheckWithRoceTraffic(String file, List<Pcap.Frame> frames, TcpConversation tcp,
                                                  KeyRecord client, KeyRecord server, long size) {
        List<RoceRequest> roce = RoceRequest.all(frames);
        assertFalse(roce.isEmpty(), "no RoCEv2 traffic in " + file);
        checkDirection(roce, tcp.client, tcp.server, client, server, size, file);
        if (file.startsWith("write_lat")) {
            checkDirection(roce, tcp.server, tcp.client, server, client, size, file);
        }
        // the responder's packets (ACKs, read responses, atomic ACKs) go to the requester's QP
        List<RoceRequest> fromServer = roce.stream().filter(p -> p.source().equals(tcp.server)).toList();
        assertFalse(fromServer.isEmpty());
        assertTrue(fromServer.stream().allMatch(p -> p.destQp() == client.qpn()), "server packets to the client QP");
    }

    private static void checkDirection(List<RoceRequest> roce, InetAddress from, InetAddress to, KeyRecord sender,
                                       KeyRecord receiver, long size, String file) {
        List<RoceRequest> requests = roce.stream()
                .filter(p -> p.source().equals(from) && p.destination().equals(to) && p.isRequest()).toList();
        assertFalse(requests.isEmpty(), "no requests from " + from + " in " + file);
        assertTrue(requests.stream().allMatch(p -> p.destQp() == receiver.qpn()), "requests to the peer's QPN");
        assertEquals(sender.psn(), requests.get(0).psn(), "first request PSN is the sender's PSN");
        List<RoceRequest> rdma = requests.stream().filter(p -> p.rkey() != null).toList();
        if (file.startsWith("send")) {
            assertTrue(rdma.isEmpty());
            return;
        }
        assertFalse(rdma.isEmpty(), "no RDMA requests in " + file);
        for (RoceRequest p : rdma) {
            assertNotNull(p.remoteAddress());
            assertEquals(receiver.rkey(), p.rkey().longValue(), "frame " + p.frameNumber() + " uses the peer's rkey");
            long offset = p.remoteAddress() - receiver.vaddr();
            assertTrue(offset >= 0 && offset + size <= 4 * 4096 + size,
                    "frame " + p.frameNumber() + " addresses the peer's buffer (offset " + offset + ")");
        }
        if (file.startsWith("read")) {
            // each read request of 4096 bytes takes 4 PSNs at the agreed 1024-byte MTU
            assertEquals(sender.psn() + 4, rdma.get(1).psn());
        }
    }
}
