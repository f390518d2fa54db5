package io.rocelab.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.testkit.Pcap;
import io.rocelab.perftest.testkit.TcpConversation;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A rocelab client and a rocelab server of the same tool, talking over 127.0.0.1 with a fake data path. */
@Timeout(60)
class SessionPairTest {
    private static final String RULE =
            "---------------------------------------------------------------------------------------\n";

    static Stream<Arguments> captured() {
        return Stream.of(
                Arguments.of(TestKind.WRITE_BW, "write_bw.pcap", new String[] {"-F", "-s", "4096", "-n", "100"}),
                Arguments.of(TestKind.READ_BW, "read_bw.pcap", new String[] {"-F", "-s", "4096", "-n", "100"}),
                Arguments.of(TestKind.SEND_BW, "send_bw.pcap", new String[] {"-F", "-s", "4096", "-n", "100"}),
                Arguments.of(TestKind.ATOMIC_BW, "atomic_bw.pcap", new String[] {"-F", "-n", "20"}),
                Arguments.of(TestKind.WRITE_LAT, "write_lat.pcap", new String[] {"-F", "-s", "64", "-n", "20"}));
    }

    /** Each side writes the same messages, of the same sizes, in the same order as real perftest did. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("captured")
    void messagesMatchTheRealPerftestExchange(TestKind kind, String file, String[] args) throws Exception {
        TcpConversation real = TcpConversation.of(Pcap.read(file), OobServer.DEFAULT_PORT);
        SessionPair pair = SessionPair.run(kind, args);
        assertEquals(0, pair.client.status, pair.client.err());
        assertEquals(0, pair.server.status, pair.server.err());
        assertEquals(real.clientWriteSizes(), pair.client.sentSizes, "client");
        assertEquals(real.serverWriteSizes(), pair.server.sentSizes, "server");
    }

    /** The latency tools without a capture, in the order their perftest sources make the exchanges. */
    @Test
    void latencyToolsWithoutACapture() throws Exception {
        List<Integer> withDone = List.of(16, 4, 4, 2, 108, 108, 108, 108, 108, 5);
        for (TestKind kind : List.of(TestKind.READ_LAT, TestKind.ATOMIC_LAT, TestKind.SEND_LAT)) {
            SessionPair pair = SessionPair.run(kind, "-n", "10");
            assertEquals(withDone, pair.client.sentSizes, kind + " client");
            assertEquals(withDone, pair.server.sentSizes, kind + " server");
        }
    }

    @Test
    void writeBandwidthPrintsWhatPerftestPrints() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.WRITE_BW, "-s", "4096", "-n", "100");
        String header = RULE
                + "                    RDMA_Write BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rocelab0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : ON\n"
                + "%s"
                + " CQ Moderation   : 100\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 0\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + RULE;
        String clientAddress = " local address: LID 0000 QPN 0x0021 PSN 0x200000 RKey 0x000200 VAddr 0x007f0000000000\n"
                + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:11\n";
        String serverAddress = " local address: LID 0000 QPN 0x0011 PSN 0x100000 RKey 0x000200 VAddr 0x007f0000000000\n"
                + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:10\n";
        String table = RULE
                + " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
                + " 4096       100              3792.48            3792.48\t\t   0.970874\n"
                + RULE;
        assertEquals(String.format(header, " TX depth        : 100\n")
                + clientAddress + serverAddress.replace(" local", " remote") + table, pair.client.out());
        assertEquals("\n************************************\n"
                + "* Waiting for client to connect... *\n"
                + "************************************\n"
                + String.format(header, "")
                + serverAddress + clientAddress.replace(" local", " remote") + table, pair.server.out());
        assertEquals("", pair.client.err());
        assertEquals(List.of("open", "createQps mtu=1024 outReads=1 gid=0", "connect 1", "runBandwidth 4096", "close"),
                pair.client.engine.calls);
        assertEquals(List.of("open", "createQps mtu=1024 outReads=1 gid=0", "connect 1", "close"),
                pair.server.engine.calls, "a one-way server moves no data");
    }

    @Test
    void bidirectionalBothSidesPrintTheSum() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.READ_BW, "-b", "-s", "4096", "-n", "100");
        String sum = " 4096       100              7584.95            7584.95\t\t   1.941748\n";
        assertTrue(pair.client.out().contains(sum), pair.client.out());
        assertTrue(pair.server.out().contains(sum), pair.server.out());
        assertTrue(pair.server.out().contains(" TX depth        : 100\n"), "both sides send");
        assertTrue(pair.server.out().contains(" Outstand reads  : 128\n"));
        assertTrue(pair.server.out().contains("RDMA_Read Bidirectional BW Test"));
    }

    @Test
    void allSizesRunEverySizeAndTheServerPrintsTheLastReport() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.WRITE_BW, "-a", "-n", "5");
        long lines = pair.client.out().lines().filter(l -> l.matches(" \\d+ +5 .*")).count();
        assertEquals(23, lines, pair.client.out());
        assertTrue(pair.client.engine.calls.contains("runBandwidth 2"));
        assertTrue(pair.client.engine.calls.contains("runBandwidth 8388608"));
        List<String> serverLines = pair.server.out().lines().filter(l -> l.matches(" \\d+ +5 .*")).toList();
        assertEquals(1, serverLines.size());
        assertTrue(serverLines.get(0).startsWith(" 8388608    5 "), serverLines.get(0));
    }

    @Test
    void latencyBothSidesOfAPingPongReport() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.WRITE_LAT, "-s", "64", "-n", "10");
        for (SessionPair.Side side : List.of(pair.client, pair.server)) {
            assertTrue(side.out().contains(" #bytes #iterations    t_min[usec]"), side.out());
            // gaps of 3.0-3.4 us, halved: min 1.50, t_max (second largest) 1.70, median 1.60, mean 1.59,
            // spread under a microsecond so t_stdev 0, 99% at index ceil(7 * 0.99) = 7: 1.70
            assertTrue(side.out().contains("\n 64      10          1.50           1.70         1.60     \t       1.59"
                    + "        \t0.00   \t\t1.70    \t\t1.70   \n"), side.out());
            assertTrue(side.out().endsWith(RULE));
        }
        assertTrue(pair.client.out().contains(" Max inline data : 220[B]\n"));
    }

    @Test
    void readLatencyServerLeavesBeforeTheTable() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.READ_LAT, "-n", "10");
        assertTrue(pair.client.out().contains(" #bytes #iterations    t_min[usec]"));
        assertFalse(pair.server.out().contains("#bytes"), pair.server.out());
        assertTrue(pair.server.out().endsWith(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:77:00:11\n" + RULE),
                pair.server.out());
        assertEquals(List.of("open", "createQps mtu=1024 outReads=128 gid=0", "connect 1", "close"),
                pair.server.engine.calls);
    }

    @Test
    void sendBandwidthServerMeasuresWhatItReceives() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.SEND_BW, "-s", "4096", "-n", "100");
        assertTrue(pair.server.out().contains(" 4096       100              0.00               3792.48\t\t   0.970874\n"),
                "no peak on a one-way send server: " + pair.server.out());
        assertTrue(pair.client.out().contains(" 4096       100              3792.48            3792.48\t\t   0.970874\n"));
        assertTrue(pair.server.out().contains(" RX depth        : 100\n"));
        assertTrue(pair.server.engine.calls.contains("runBandwidth 4096"));
    }

    @Test
    void durationRuns() throws Exception {
        SessionPair bw = SessionPair.run(TestKind.WRITE_BW, "-D", "2", "-s", "65536");
        assertTrue(bw.client.out().contains(" 65536      250000           0.00               15625.00\t\t   0.250000\n"),
                bw.client.out());
        SessionPair lat = SessionPair.run(TestKind.SEND_LAT, "-D", "2");
        assertTrue(lat.client.out().contains(" #bytes        #iterations       t_avg[usec]    tps average\n"
                + " 2             400000            2.50           200000.00\n"), lat.client.out());
    }

    @Test
    void runInfinitelyPrintsEveryPeriod() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.WRITE_BW, "--run_infinitely", "-s", "1024");
        List<String> lines = pair.client.out().lines().filter(l -> l.startsWith(" 1024 ")).toList();
        assertEquals(List.of(" 1024       100000           0.00               19.53  \t\t   0.020000",
                " 1024       200000           0.00               39.06  \t\t   0.040000"), lines);
    }

    @Test
    void aMissedBandwidthLimitFailsTheClient() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.WRITE_BW, "-s", "4096", "-n", "100", "-w", "5000");
        assertEquals(1, pair.client.status);
        assertEquals("Error: BW result is below bw limit" + System.lineSeparator(), pair.client.err());
        assertEquals(0, pair.server.status);
        SessionPair met = SessionPair.run(TestKind.WRITE_BW, "-s", "4096", "-n", "100", "-w", "3000", "-y", "0.5");
        assertEquals(0, met.client.status, met.client.err());
        SessionPair rate = SessionPair.run(TestKind.WRITE_BW, "-s", "4096", "-n", "100", "-y", "2");
        assertEquals("Error: Msg rate  is below msg_rate limit" + System.lineSeparator(), rate.client.err());
    }

    @Test
    void everyQpIsExchangedAndShown() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.WRITE_BW, "-q", "3", "-s", "64", "-n", "10");
        assertEquals(3, pair.client.engine.remote.size());
        assertEquals(0x11 + 2, pair.client.engine.remote.get(2).qpn());
        assertEquals(3, pair.client.out().split(" local address:", -1).length - 1);
        assertEquals(3, pair.client.out().split(" remote address:", -1).length - 1);
        // 3 QPs: three records in each of the first two rounds, then single barriers
        assertEquals(List.of(16, 4, 4, 2, 108, 108, 108, 108, 108, 108, 108, 108, 8, 8, 8, 8, 8, 108, 5),
                pair.client.sentSizes);
    }

    @Test
    void theSmallerMtuWins() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.SEND_LAT, "-m", "512", "-n", "10");
        assertTrue(pair.client.out().contains(" Mtu             : 512[B]\n"));
        assertTrue(pair.server.out().contains(" Mtu             : 512[B]\n"));
        SessionPair big = SessionPair.run(TestKind.SEND_LAT, "-m", "4096", "-n", "10");
        assertTrue(big.client.out().startsWith("Requested mtu is higher than active mtu \nChanging to active mtu - 3\n"),
                big.client.out());
        assertTrue(big.client.out().contains(" Mtu             : 1024[B]\n"));
    }

    @Test
    void aDefaultUdSizeIsLoweredToTheMtu() throws Exception {
        SessionPair pair = SessionPair.run(TestKind.SEND_BW, "-c", "UD", "-n", "10");
        assertEquals(" Max msg size in UD is MTU 1024\n Changing to this MTU\n",
                pair.client.err().replace(System.lineSeparator(), "\n"));
        assertTrue(pair.client.engine.calls.contains("runBandwidth 1024"), pair.client.engine.calls.toString());
        assertTrue(pair.client.out().contains(" Connection type : UD\t\tUsing SRQ      : OFF\n"));
    }
}
