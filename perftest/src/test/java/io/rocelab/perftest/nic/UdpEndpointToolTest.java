package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.endpoint.UdpEndpointCounter;
import io.rocelab.fabric.endpoint.UdpEndpointPort;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.OobServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ib_write_bw --udp-endpoint}: a server and a client on two threads, each NIC on its own
 * loopback address (127.0.97.1, 127.0.97.2) and port 4791, the perftest exchange over TCP; and the
 * flag's mistakes, one line each.
 */
@Timeout(120)
class UdpEndpointToolTest {

    private static PerftestOptions options(String[] args) {
        return NicSessions.options(TestKind.WRITE_BW, Arrays.asList(args));
    }

    @Test
    void writeBandwidthRunsBetweenTwoEndpoints() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try (OobServer listener = OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            // -u 18: a 1 s local ACK timeout instead of 67 ms, so that a loop thread waiting for a core on a
            // loaded machine does not turn into go-back-N resends (see UdpEndpointTransferTest)
            NicOptions.Split server = NicOptions.split(new String[] {"--udp-endpoint", "127.0.97.1", "-s", "65536",
                "-n", "200", "-u", "18", "--report_gbits"});
            NicOptions.Split client = NicOptions.split(new String[] {"--udp-endpoint=127.0.97.2", "-s", "65536", "-n",
                "200", "-u", "18", "--report_gbits", "-p", String.valueOf(listener.port()), "127.0.0.1"});
            assertEquals(NicOptions.DataPath.UDP_ENDPOINT, server.nic().dataPath());
            assertEquals("127.0.97.1", server.nic().ipFor(true));
            NicEngine serverEngine = NicEngineFactory.of(server.nic()).create(options(server.perftestArgs()));
            NicEngine clientEngine = NicEngineFactory.of(client.nic()).create(options(client.perftestArgs()));
            ByteArrayOutputStream serverErr = new ByteArrayOutputStream();
            ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
            ByteArrayOutputStream clientErr = new ByteArrayOutputStream();
            Future<Integer> s = pool.submit(() -> SessionRunner.run(TestKind.WRITE_BW, options(server.perftestArgs()),
                serverEngine, SessionRunner.nullStream(), new PrintStream(serverErr, true, StandardCharsets.UTF_8),
                listener));
            int clientStatus = SessionRunner.run(TestKind.WRITE_BW, options(client.perftestArgs()), clientEngine,
                new PrintStream(clientOut, true, StandardCharsets.UTF_8),
                new PrintStream(clientErr, true, StandardCharsets.UTF_8), null);
            int serverStatus = s.get(60, TimeUnit.SECONDS);
            String out = clientOut.toString(StandardCharsets.UTF_8);
            String all = out + clientErr + " / server: " + serverErr;
            assertEquals(0, clientStatus, all);
            assertEquals(0, serverStatus, all);
            List<NicSessions.BwLine> lines = NicSessions.BwLine.all(out);
            assertEquals(1, lines.size(), out);
            assertEquals(65536, lines.get(0).size());
            assertEquals(200, lines.get(0).iterations());
            assertTrue(lines.get(0).average() > 0, out);
            // 200 WRITEs of 16 packets each reached the server's NIC, all with a good ICRC
            assertTrue(serverEngine.nic().counters().get(NicCounter.RCVD_PKTS) >= 200 * 16,
                serverEngine.nic().counters().toString());
            assertEquals(0, serverEngine.nic().counters().get(NicCounter.DROP_BAD_ICRC));
            assertEquals(0, clientEngine.nic().counters().get(NicCounter.DROP_BAD_ICRC));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anAddressThatIsNotThisHostsIsOneLine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // 192.0.2.0/24 is TEST-NET-1: never an address of this host
        int status = NicTool.run(TestKind.WRITE_BW, new String[] {"--udp-endpoint", "192.0.2.1"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertEquals(1, text.strip().lines().count(), text);
        assertTrue(text.contains("192.0.2.1"), text);
    }

    @Test
    void mistakesAreOneLineAndStatusOne() {
        String[][] cases = {
            {"--udp-endpoint"},
            {"--udp-endpoint", "300.1.1.1"},
            {"--udp-endpoint", "host.example"},
            {"--udp-endpoint", "224.0.0.1"},
            {"--udp-endpoint", "127.0.0.1", "--in-process"},
            {"--udp-endpoint", "127.0.0.1", "--udp-frame", "40000:40001"},
            {"--udp-endpoint", "10.99.0.1", "--ip", "10.99.0.2"},
        };
        for (String[] args : cases) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = NicTool.run(TestKind.WRITE_BW, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            String text = err.toString(StandardCharsets.UTF_8);
            assertEquals(1, status, String.join(" ", args) + ": " + text);
            assertEquals(1, text.strip().lines().count(), String.join(" ", args) + ": " + text);
        }
    }

    @Test
    void helpListsTheFlag() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = NicTool.run(TestKind.WRITE_BW, new String[] {"-h"}, new PrintStream(out, true,
            StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, status);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--udp-endpoint LOCAL_IP"), out.toString());
    }

    @Test
    void withoutDashUTheQpsWaitASecondForAnAckAndDashUIsKept() {
        NicOptions.Split plain = NicOptions.split(new String[] {"--udp-endpoint", "127.0.97.1"});
        NicEngine engine = NicEngineFactory.of(plain.nic()).create(options(plain.perftestArgs()));
        assertEquals(18, NicEngineFactory.UDP_QP_TIMEOUT);
        assertEquals(NicEngineFactory.UDP_QP_TIMEOUT, engine.defaultQpTimeout());
        assertEquals(18, NicEngine.qpTimeout(options(plain.perftestArgs()), engine.defaultQpTimeout()));

        for (String u : new String[] {"14", "20"}) {
            NicOptions.Split given = NicOptions.split(new String[] {"--udp-endpoint", "127.0.97.1", "-u", u});
            NicEngine e = NicEngineFactory.of(given.nic()).create(options(given.perftestArgs()));
            assertEquals(Integer.parseInt(u), NicEngine.qpTimeout(options(given.perftestArgs()), e.defaultQpTimeout()),
                "-u " + u);
        }
    }

    @Test
    void frameOverUdpWaitsASecondTooAndInProcessKeepsPerftestsDefault() {
        NicOptions.Split frame = NicOptions.split(new String[] {"--udp-frame", "40000:40001"});
        NicEngine engine = NicEngineFactory.of(frame.nic()).create(options(frame.perftestArgs()));
        assertEquals(NicEngineFactory.UDP_QP_TIMEOUT, engine.defaultQpTimeout(), "a qemu VM or another process");
        assertEquals(18, NicEngine.qpTimeout(options(frame.perftestArgs()), engine.defaultQpTimeout()));
        NicOptions.Split given = NicOptions.split(new String[] {"--udp-frame", "40000:40001", "-u", "14"});
        assertEquals(14, NicEngine.qpTimeout(options(given.perftestArgs()),
            NicEngineFactory.of(given.nic()).create(options(given.perftestArgs())).defaultQpTimeout()));
        try (InProcessFabric fabric = InProcessFabric.create()) {
            NicEngine inProcess = NicEngineFactory.inProcess(fabric).create(options(new String[0]));
            assertEquals(14, NicEngine.qpTimeout(options(new String[0]), inProcess.defaultQpTimeout()));
        }
    }


    @Test
    void theNicIsBuiltWithTheFixedIdentificationThePeerRebuilds() throws Exception {
        NicAttachment a = NicAttachment.udpEndpoint("t", "127.0.97.3", 0x0252_5400_9703L);
        try {
            assertTrue(a.describe().startsWith("UDP endpoint 127.0.97.3:4791"), a.describe());
            var nic = a.configure(io.rocelab.nic.SoftNic.builder().mac(0x0252_5400_9703L).ipv4("127.0.97.3")
                .scheduler(a.scheduler()).port(a.port())).build();
            try {
                // the peer is another rocelab NIC: a wider window, one ACK request per 128 packets
                assertEquals(512, nic.maxUnackedPsns());
                assertEquals(128, nic.ackReqInterval());
                // an ARP request goes to the port and is answered there; nothing is dropped for its ID
                nic.addNeighbor(0, 0x0252_5400_9704L);
            } finally {
                nic.close();
            }
            UdpEndpointPort port = (UdpEndpointPort) a.port();
            assertEquals(0, port.counters().get(UdpEndpointCounter.TX_DROPPED_IP_ID));
        } finally {
            a.close();
        }
    }
}
