package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.sflow.CounterSample;
import io.rocelab.codec.sflow.FlowSample;
import io.rocelab.codec.sflow.GenericInterfaceCounters;
import io.rocelab.codec.sflow.RawPacketHeader;
import io.rocelab.codec.sflow.SflowDatagram;
import io.rocelab.codec.sflow.SflowDecoder;
import io.rocelab.codec.sflow.SflowSample;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * sFlow from {@code rocelab switch} as a user runs it: a config_db with {@code SFLOW},
 * {@code SFLOW_COLLECTOR} (a UDP socket this test opens on 127.0.0.1) and {@code SFLOW_SESSION},
 * {@code ib_write_bw} across the switch process; the test receives the datagrams, decodes them
 * (flow samples of the RoCE writes at the configured rate, the sampled header Ethernet/IPv4/UDP
 * 4791, counter samples with the port's traffic) and reads {@code show sflow}, {@code show sflow
 * interface} and {@code show sflow counters}.
 */
@Timeout(180)
class SflowSwitchProcessTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final ToolProcesses tools = ToolProcesses.in(() -> dir);

    private Path config(int collectorPort) throws Exception {
        ObjectNode root;
        root = DemoLeaf.tables();
        root.withObject("/SFLOW").putObject("global").put("admin_state", "up").put("polling_interval", "5")
            .put("agent_id", "Loopback0");
        root.withObject("/LOOPBACK_INTERFACE").putObject("Loopback0|10.1.0.1/32");
        root.withObject("/SFLOW_COLLECTOR").putObject("lab").put("collector_ip", "127.0.0.1")
            .put("collector_port", String.valueOf(collectorPort));
        root.withObject("/SFLOW_SESSION").putObject("Ethernet4").put("sample_rate", "256");
        Path f = dir.resolve("config_db.json");
        Files.writeString(f, root.toPrettyString());
        return f;
    }

    @Test
    void datagramsReachACollectorOnTheHost() throws Exception {
        try (DatagramSocket collector = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            collector.setSoTimeout(200);
            int serverNic = ToolProcesses.freeUdpPort();
            int clientNic = ToolProcesses.freeUdpPort();
            int e0 = ToolProcesses.freeUdpPort();
            int e4 = ToolProcesses.freeUdpPort();
            int tcp = ToolProcesses.freeTcpPort();
            Path socket = dir.resolve("leaf.sock");
            Process sw = tools.start("switch", "switch", "--config", config(collector.getLocalPort()).toString(),
                "--port", "Ethernet0=udp:" + e0 + ":" + serverNic, "--port", "Ethernet4=udp:" + e4 + ":" + clientNic,
                "--socket", socket.toString());
            tools.awaitOutput(sw, "switch", "ready", 60);

            CliRun global = CliRun.of("switch", "show", "sflow", "--socket", socket.toString());
            assertEquals(0, global.exitCode(), global.err());
            assertTrue(global.out().contains("  sFlow Admin State:               up\n"), global.out());
            assertTrue(global.out().contains("  sFlow AgentID:                   Loopback0\n"), global.out());
            assertTrue(global.out().contains("    Name: lab                      IP addr: 127.0.0.1       UDP port: "
                + collector.getLocalPort()), global.out());
            CliRun ifaces = CliRun.of("switch", "show", "sflow", "interface", "--socket", socket.toString());
            assertTrue(ifaces.out().contains("| Ethernet0   | up            |          100000 | rx                   |"),
                ifaces.out());
            assertTrue(ifaces.out().contains("| Ethernet4   | up            |             256 | rx                   |"),
                ifaces.out());

            Process server = tools.start("server", "ib_write_bw", "--udp-frame", serverNic + ":" + e0,
                "-n", "3000", "-s", "4096", "-p", String.valueOf(tcp));
            tools.awaitOutput(server, "server", "Waiting for client", 60);
            Process client = tools.start("client", "ib_write_bw", "--udp-frame", clientNic + ":" + e4,
                "--ip", "10.77.0.2", "--mac", "52:54:00:77:01:02",
                "-n", "3000", "-s", "4096", "-p", String.valueOf(tcp), "127.0.0.1");
            List<SflowSample> samples = new ArrayList<>();
            SflowDecoder decoder = new SflowDecoder();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
            byte[] buf = new byte[65536];
            boolean trafficDone = false;
            long countedAfter = Long.MAX_VALUE;
            while (System.nanoTime() < deadline) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    collector.receive(p);
                    SflowDatagram d = decoder.decode(Arrays.copyOf(p.getData(), p.getLength()));
                    assertNotNull(d, decoder.lastError());
                    assertEquals("10.1.0.1", d.agent().getHostAddress(), "agent_id Loopback0's address");
                    samples.addAll(d.samples());
                } catch (SocketTimeoutException e) {
                    // nothing this time
                }
                if (!trafficDone && !client.isAlive()) {
                    trafficDone = true;
                    assertEquals(0, client.exitValue(), tools.output("client"));
                    assertTrue(server.waitFor(30, TimeUnit.SECONDS), tools.output("server"));
                    countedAfter = samples.size();
                }
                // a counter poll of Ethernet4 after the traffic: done
                if (trafficDone && samples.size() > countedAfter && samples.subList((int) countedAfter, samples.size())
                        .stream().anyMatch(s -> s instanceof CounterSample c && c.sourceId() == 5)) {
                    break;
                }
            }
            assertTrue(trafficDone, "the writes did not finish: " + tools.output("client"));
            List<FlowSample> flows = samples.stream().filter(s -> s instanceof FlowSample).map(s -> (FlowSample) s)
                .filter(f -> f.sourceId() == 5).toList();
            // 3000 writes of 4096 bytes, a frame each (the path MTU is 4096): about 12 samples at 1 in 256
            assertTrue(flows.size() >= 3, "flow samples of Ethernet4: " + flows.size());
            for (FlowSample f : flows) {
                assertEquals(256, f.samplingRate());
                assertEquals(5, f.input());
            }
            assertTrue(flows.stream().anyMatch(SflowSwitchProcessTest::isRoce), "a sampled RoCEv2 frame");
            CounterSample last = null;
            for (SflowSample s : samples) {
                if (s instanceof CounterSample c && c.sourceId() == 5) {
                    last = c;
                }
            }
            assertNotNull(last, "a counter sample of Ethernet4");
            GenericInterfaceCounters g = (GenericInterfaceCounters) last.records().get(0);
            assertTrue(g.ifInUcastPkts() >= 3000, "the frames the writes took in: " + g.ifInUcastPkts());
            assertEquals(100_000_000_000L, g.ifSpeed());
            CliRun counters = CliRun.of("switch", "show", "interfaces", "counters", "--socket", socket.toString());
            String e4Line = counters.out().lines().filter(l -> l.trim().startsWith("Ethernet4 ")).findFirst()
                .orElseThrow();
            long rxOk = Long.parseLong(e4Line.trim().split("\\s+")[2].replace(",", ""));
            assertTrue(g.ifInUcastPkts() <= rxOk, "a poll says what the switch had counted: " + g.ifInUcastPkts()
                + " <= " + rxOk);
            CliRun sflowCounters = CliRun.of("switch", "show", "sflow", "counters", "--socket", socket.toString());
            assertEquals(0, sflowCounters.exitCode(), sflowCounters.err());
            assertTrue(sflowCounters.out().startsWith("sFlow agent 10.1.0.1: "), sflowCounters.out());
            System.out.print(sflowCounters.out());
        }
    }

    /** The sampled header is Ethernet, IPv4, UDP to 4791 and then an InfiniBand BTH. */
    private static boolean isRoce(FlowSample f) {
        ByteBuffer h = ByteBuffer.wrap(((RawPacketHeader) f.records().get(0)).header());
        return h.limit() >= 54 && h.getShort(12) == (short) EtherType.IPV4 && h.get(23) == 17
            && (h.getShort(36) & 0xFFFF) == 4791;
    }
}
