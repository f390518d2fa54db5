package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.report.PingpongReport;
import io.rocelab.perftest.testkit.ByteCursor;
import io.rocelab.perftest.testkit.Pcap;
import io.rocelab.perftest.testkit.RoceRequest;
import io.rocelab.perftest.testkit.TcpConversation;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The 52-byte exchanges of real ibv_{rc,uc,ud}_pingpong runs between two rxe VMs, over IPv4 and
 * IPv6, read with rocelab's decoder and checked against the RoCEv2 packets that follow them.
 */
class CapturedPingpongExchangeTest {

    @ParameterizedTest
    @ValueSource(strings = {"rc_pingpong.pcap", "rc_pingpong_ipv6.pcap", "uc_pingpong.pcap", "ud_pingpong.pcap"})
    void recordsDecodeReencodeAndPredictTheTraffic(String file) {
        List<Pcap.Frame> frames = Pcap.read(file);
        TcpConversation tcp = TcpConversation.of(frames, OobServer.DEFAULT_PORT);
        assertEquals(List.of(52, 5), tcp.clientWriteSizes(), "record, then done, each one write");
        assertEquals(List.of(52), tcp.serverWriteSizes());

        ByteCursor c = new ByteCursor(tcp.clientBytes());
        byte[] clientBytes = c.take(PingpongRecord.WIRE_SIZE);
        DoneMessage.check(c.take(DoneMessage.WIRE_SIZE));
        byte[] serverBytes = tcp.serverBytes();
        PingpongRecord client = PingpongRecord.decode(clientBytes);
        PingpongRecord server = PingpongRecord.decode(serverBytes);
        assertArrayEquals(clientBytes, client.encode());
        assertArrayEquals(serverBytes, server.encode());

        assertEquals(0, client.lid());
        assertEquals(0, server.lid());

        // each GID is the IP address the side's RoCEv2 packets come from (IPv4-mapped or IPv6,
        // whatever the TCP connection used), and those packets follow the records
        List<RoceRequest> roce = RoceRequest.all(frames);
        for (boolean fromClient : new boolean[] {true, false}) {
            PingpongRecord sender = fromClient ? client : server;
            PingpongRecord receiver = fromClient ? server : client;
            List<RoceRequest> sends = roce.stream()
                    .filter(p -> p.source().equals(sender.gid().toInetAddress())
                            && p.destination().equals(receiver.gid().toInetAddress()) && p.isRequest()).toList();
            assertFalse(sends.isEmpty());
            assertEquals(sender.psn(), sends.get(0).psn(), "first send carries the sender's PSN");
            assertTrue(sends.stream().allMatch(p -> p.destQp() == receiver.qpn()), "sends go to the peer's QPN");
            if (file.startsWith("ud")) {
                assertTrue(sends.stream().allMatch(p -> p.sourceQp() == sender.qpn()), "DETH names the sender's QP");
            }
        }
    }

    @Test
    void addressLinesOfTheIpv6Capture() {
        TcpConversation tcp = TcpConversation.of(Pcap.read("rc_pingpong_ipv6.pcap"), OobServer.DEFAULT_PORT);
        PingpongRecord client = PingpongRecord.decode(new ByteCursor(tcp.clientBytes()).take(52));
        String line = PingpongReport.localAddress(client);
        assertTrue(line.startsWith("  local address:  LID 0x0000, QPN 0x0000"), line);
        assertTrue(line.endsWith(", GID fd77::11\n"), line);
    }
}
