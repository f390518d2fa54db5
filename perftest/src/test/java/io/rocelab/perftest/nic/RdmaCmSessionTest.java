package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.oob.OobTrace;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * perftest's {@code -R} between two rocelab sides in this process: the exchange's QP and the data
 * QPs connected by the connection manager on QP1, the whole exchange as SENDs in the sizes
 * perftest 4.5 sends them (16, 4, 4, 2, then 56-byte binary key records and 8-byte reports), no
 * TCP, the tables as without {@code -R} plus rdma_cm's header lines.
 */
@Timeout(120)
class RdmaCmSessionTest {
    /** Records the sizes of what one side sent and received, in order. */
    private static final class Sizes implements OobTrace {
        final List<Integer> sent = Collections.synchronizedList(new ArrayList<>());
        final List<String> what = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void sent(String w, byte[] bytes) {
            sent.add(bytes.length);
            what.add(w);
        }

        @Override
        public void received(String w, byte[] bytes) {
        }
    }

    @Test
    void writeBwConnectsThroughRdmaCmAndExchangesOverSends() throws Exception {
        Sizes trace = new Sizes();
        NicSessions p = NicSessions.runRdmaCm(TestKind.WRITE_BW, trace, "-s", "4096", "-n", "300");
        assertEquals(0, p.client.status, p.client.toString());
        assertEquals(0, p.server.status, p.server.toString());
        List<NicSessions.BwLine> rows = NicSessions.BwLine.all(p.client.out());
        assertEquals(1, rows.size(), p.client.out());
        assertEquals(4096, rows.get(0).size());
        assertEquals(300, rows.get(0).iterations());
        assertTrue(rows.get(0).average() > 0, p.client.out());
        for (NicSessions.Side side : List.of(p.client, p.server)) {
            assertTrue(side.out().contains(" rdma_cm QPs\t : ON\n"), side.out());
            assertTrue(side.out().contains(" Data ex. method : rdma_cm"), side.out());
        }
        assertTrue(p.server.out().contains(" Waiting for client rdma_cm QP to connect\n"
                + " Please run the same command with the IB/RoCE interface IP\n"), p.server.out());
        assertFalse(p.client.out().contains("Waiting for client rdma_cm"), p.client.out());
        // the address lines as perftest prints them with -R: its exchange's verb (SEND), no RKey/VAddr
        assertTrue(p.client.out().matches("(?s).*\n local address: LID 0000 QPN 0x0012 PSN 0x[0-9a-f]{6}\n GID: "
                + "00:00:00:00:00:00:00:00:00:00:255:255:.*"), p.client.out());
        assertFalse(p.client.out().contains("RKey"), p.client.out());
        // perftest 4.5's exchange with -R: version, page and cache line sizes, MTU, then the empty
        // records around the data QPs' connections, the key records, the report; no "done"
        assertEquals(List.of(16, 4, 4, 2, 56, 56), trace.sent.subList(0, 6), trace.what.toString());
        assertFalse(trace.what.contains("done"), trace.what.toString());
        assertTrue(trace.sent.stream().allMatch(n -> n == 56 || n == 8 || n <= 16), trace.sent.toString());
        assertEquals(5, trace.what.stream().filter(w -> w.startsWith("BW report")).count(), trace.what.toString());
        // the data QP and the exchange's QP were connected by the CM on QP1, not by the key records
        assertEquals(0x12, p.client.engine.qp(0).qpn());
        assertTrue(p.client.engine.nic().counters().get(NicCounter.SENT_PKTS) > 300, "client sent packets");
    }

    @Test
    void readSendAndLatencyToolsRunOverRdmaCm() throws Exception {
        for (TestKind kind : List.of(TestKind.READ_BW, TestKind.SEND_BW, TestKind.WRITE_LAT, TestKind.READ_LAT,
                TestKind.SEND_LAT, TestKind.ATOMIC_BW)) {
            NicSessions p = NicSessions.runRdmaCm(kind, OobTrace.NONE, "-n", "100");
            assertEquals(0, p.client.status, kind + " client " + p.client);
            assertEquals(0, p.server.status, kind + " server " + p.server);
            boolean lat = kind.isLatency();
            int rows = lat ? NicSessions.LatLine.all(p.client.out()).size() : NicSessions.BwLine.all(p.client.out()).size();
            assertEquals(1, rows, kind + "\n" + p.client.out());
        }
    }

    @Test
    void theDataQpsUseTheMtuTheSidesAgreedOn() throws Exception {
        // the NICs' ports run 4096; -m 1024 makes the exchange agree on 1024, and the CM's REQ offers
        // that path MTU, so each 4096-byte WRITE goes as four packets (a port with a larger MTU than
        // its peer's, e.g. rocelab's 4096 against rxe's 1024, must not offer more than the peer carries)
        NicSessions p = NicSessions.runRdmaCm(TestKind.WRITE_BW, OobTrace.NONE, "-m", "1024", "-s", "4096", "-n",
                "100");
        assertEquals(0, p.client.status, p.client.toString());
        assertEquals(0, p.server.status, p.server.toString());
        assertTrue(p.client.out().contains(" Mtu             : 1024[B]"), p.client.out());
        long received = p.server.engine.nic().counters().get(NicCounter.RCVD_PKTS);
        assertTrue(received >= 400, "the server received " + received + " packets for 100 WRITEs of 4096 bytes");
    }

    @Test
    void theClientsTypeOfServiceReachesBothSidesDataQps() throws Exception {
        // -T 106 (DSCP 26, ECT(0)) on the client only: rdma_cm puts it in the REQ's path and the
        // server's QP takes it from there (ConnectionManagerTest checks the QPs' paths)
        NicSessions p = NicSessions.runRdmaCm(TestKind.WRITE_BW, OobTrace.NONE, List.of("-T", "106"), "-s", "4096",
                "-n", "50");
        assertEquals(0, p.client.status, p.client.toString());
        assertEquals(0, p.server.status, p.server.toString());
        assertTrue(p.client.out().contains(" Data ex. method : rdma_cm \tTOS    : 106\n"), p.client.out());
    }

    @Test
    void severalQpsEachGetTheirOwnConnection() throws Exception {
        NicSessions p = NicSessions.runRdmaCm(TestKind.WRITE_BW, OobTrace.NONE, "-q", "3", "-s", "1024", "-n", "100");
        assertEquals(0, p.client.status, p.client.toString());
        assertEquals(0, p.server.status, p.server.toString());
        assertEquals(1, NicSessions.BwLine.all(p.client.out()).size(), p.client.out());
        for (int i = 0; i < 3; i++) {
            KeyRecord k = p.client.engine.keys().get(i);
            assertEquals(0x12 + i, k.qpn());
        }
    }

    @Test
    void aClientWithNobodyListeningFailsInOneLine() throws Exception {
        try (InProcessFabric fabric = InProcessFabric.create()) {
            NicOptions nic = new NicOptions(NicOptions.DataPath.IN_PROCESS, 0, null, 0, null, null,
                    NicOptions.DEFAULT_ACTIVE_MTU, null, false);
            io.rocelab.perftest.cli.PerftestOptions serverOptions = NicSessions.options(TestKind.WRITE_BW, List.of("-R"));
            io.rocelab.perftest.cli.PerftestOptions o = NicSessions.options(TestKind.WRITE_BW,
                    List.of("-R", nic.ipFor(true)));
            // the server's NIC and CM are there but nothing listens: REJ, invalid service ID
            NicEngine server = NicEngineFactory.inProcess(fabric, nic).create(serverOptions);
            server.open(serverOptions);
            io.rocelab.nic.cm.ConnectionManager.start(server.nic(), 1);
            NicEngine client = NicEngineFactory.inProcess(fabric, nic).create(o);
            java.io.PrintStream quiet = SessionRunner.nullStream();
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> new io.rocelab.perftest.run.PerftestSession(o, client, quiet, quiet,
                            java.time.Duration.ofSeconds(20)).run());
            server.close();
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            assertTrue(e.getMessage().contains("RDMA_CM_EVENT_REJECTED"), e.getMessage());
            assertTrue(e.getMessage().startsWith("Unable to init the socket connection"), e.getMessage());
        }
    }

    @Test
    void udOverRdmaCmIsRefusedInOneLine() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status = NicTool.run(TestKind.SEND_BW, new String[] {"--in-process", "-R", "-c", "UD"},
                new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
        assertEquals(1, status);
        assertTrue(err.toString().contains("SIDR"), err.toString());
    }

    @Test
    void inProcessModeRunsRdmaCm() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status = NicTool.run(TestKind.WRITE_BW, new String[] {"--in-process", "-R", "-s", "2048", "-n", "200"},
                new java.io.PrintStream(out, true), new java.io.PrintStream(err, true));
        assertEquals(0, status, err + "\n" + out);
        assertEquals(1, NicSessions.BwLine.all(out.toString()).size(), out.toString());
        assertTrue(out.toString().contains(" Data ex. method : rdma_cm"), out.toString());
    }
}
