package io.rocelab.perftest.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tools end to end on two soft NICs in one JVM: perftest's session and TCP exchange, the NIC
 * engine, an in-process link. Each test checks the printed table, the memory the traffic left,
 * and the NIC counters.
 */
@Timeout(120)
class NicEngineTest {

    private static void ok(NicSessions p) {
        assertEquals(0, p.client.status, "client " + p.client);
        assertEquals(0, p.server.status, "server " + p.server);
    }

    private static NicSessions.BwLine onlyBwLine(NicSessions.Side side) {
        List<NicSessions.BwLine> lines = NicSessions.BwLine.all(side.out());
        assertEquals(1, lines.size(), side.toString());
        return lines.get(0);
    }

    private static byte[] slice(byte[] b, int from, int len) {
        return Arrays.copyOfRange(b, from, from + len);
    }

    @Test
    void writeBandwidth() throws Exception {
        NicSessions p = NicSessions.run(TestKind.WRITE_BW, "-s", "4096", "-n", "200");
        ok(p);
        String out = p.client.out();
        assertTrue(out.contains("RDMA_Write BW Test"), out);
        assertTrue(out.contains("Device         : rocelab0"), out);
        assertTrue(out.contains("#bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"), out);
        NicSessions.BwLine line = onlyBwLine(p.client);
        assertEquals(4096, line.size());
        assertEquals(200, line.iterations());
        assertTrue(line.average() > 0 && line.peak() >= line.average() * 0.5, out);
        assertTrue(line.rate() > 0, out);
        // the server prints the client's report
        assertEquals(200, onlyBwLine(p.server).iterations());
        // the last message's bytes are where the client's key record said to put them
        byte[] sent = slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(0), 4096);
        assertArrayEquals(sent, slice(p.server.engine.buffer(), p.server.engine.remoteSlotOffset(0), 4096));
        // 4096-byte messages at MTU 4096: one request packet each, ACKs back
        long sent0 = p.client.engine.nic().counters().get(NicCounter.SENT_PKTS);
        assertTrue(sent0 >= 200, "sent_pkts " + sent0);
        assertTrue(p.server.engine.nic().counters().get(NicCounter.RCVD_PKTS) >= 200);
        assertEquals(0, p.client.engine.nic().counters().get(NicCounter.RETRY_EXCEEDED_ERR));
        // the send loop ran on the NIC's thread (OwnerThreadSendLoop) and every WR completed
        assertEquals(0, p.client.engine.lastLoopOutstanding);
    }

    /**
     * {@code -D}: the send loop runs on the NIC's thread (OwnerThreadSendLoop). The table holds the
     * WRs completed in the 2 s window at the rate they completed, the last message's bytes landed,
     * and nothing failed or was left outstanding.
     */
    @Test
    void writeBandwidthForADuration() throws Exception {
        NicSessions p = NicSessions.run(TestKind.WRITE_BW, "-s", "65536", "-D", "2", "-q", "2");
        ok(p);
        NicSessions.BwLine line = onlyBwLine(p.client);
        assertEquals(65536, line.size());
        assertTrue(line.iterations() > 100, p.client.out());
        double seconds = line.iterations() / (line.rate() * 1e6);
        assertTrue(seconds > 1.95 && seconds < 2.2, "completions over their rate: the 2 s window, got " + seconds);
        for (int qp = 0; qp < 2; qp++) {
            assertArrayEquals(slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(qp), 65536),
                    slice(p.server.engine.buffer(), p.server.engine.remoteSlotOffset(qp), 65536), "QP " + qp);
        }
        assertEquals(0, p.client.engine.nic().counters().get(NicCounter.RETRY_EXCEEDED_ERR));
        // when the window closed the loop stopped posting and waited for what was posted
        assertEquals(0, p.client.engine.lastLoopOutstanding, "WRs left outstanding at the end");
    }

    /**
     * An error completion met by the NIC thread's send loop ends the run with perftest's message,
     * timed ({@code -D}) or counted ({@code -n}).
     */
    @Test
    void aCompletionErrorEndsTheRunWithItsMessage() throws Exception {
        for (String[] mode : new String[][] {{"-D", "2"}, {"-n", "100000"}}) {
            java.util.concurrent.ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.ExecutionException.class,
                    () -> NicSessions.run(TestKind.WRITE_BW, engine -> engine.sendCheck = (wc, posted, completed) -> {
                        if (completed >= 50) {
                            throw new IllegalStateException("Completion with error at client: injected at " + completed);
                        }
                    }, "-s", "4096", mode[0], mode[1]));
            // the error thrown on the NIC's thread reaches the application thread, as from its own poll
            assertTrue(e.getCause() instanceof IllegalStateException, mode[0] + ": " + e.getCause());
            assertTrue(e.getCause().getMessage().startsWith("Completion with error at client: injected at "),
                    e.getCause().getMessage());
        }
    }

    /**
     * {@code ib_send_bw -b}: both sides send and re-post receives, so the send loop runs on the
     * application's thread (not OwnerThreadSendLoop): counted ({@code -n}) on two QPs, every
     * message arrives and each side's table counts its iterations.
     */
    @Test
    void bidirectionalSendBandwidthCounted() throws Exception {
        NicSessions p = NicSessions.run(TestKind.SEND_BW, "-b", "-s", "4096", "-n", "300", "-q", "2");
        ok(p);
        for (NicSessions.Side side : List.of(p.client, p.server)) {
            NicSessions.BwLine line = onlyBwLine(side);
            assertEquals(4096, line.size(), side.out());
            assertEquals(600, line.iterations(), side.out());
            assertTrue(line.average() > 0 && line.rate() > 0, side.out());
            // the loop on this thread, not the NIC's: no OwnerThreadSendLoop ran
            assertEquals(-1, side.engine.lastLoopOutstanding);
        }
        assertTrue(p.server.engine.nic().counters().get(NicCounter.RCVD_PKTS) >= 600);
        assertTrue(p.client.engine.nic().counters().get(NicCounter.RCVD_PKTS) >= 600);
        assertEquals(0, p.client.engine.nic().counters().get(NicCounter.RETRY_EXCEEDED_ERR));
    }

    /**
     * {@code ib_send_bw -b -D}: the application thread's loop counts completions over the window,
     * then stops at the next signalled WR and drains.
     */
    @Test
    void bidirectionalSendBandwidthForADuration() throws Exception {
        NicSessions p = NicSessions.run(TestKind.SEND_BW, "-b", "-s", "4096", "-D", "2");
        ok(p);
        NicSessions.BwLine line = onlyBwLine(p.client);
        assertEquals(4096, line.size());
        assertTrue(line.iterations() > 100, p.client.out());
        assertTrue(line.average() > 0, p.client.out());
        assertEquals(-1, p.client.engine.lastLoopOutstanding);
        assertEquals(0, p.client.engine.nic().counters().get(NicCounter.RETRY_EXCEEDED_ERR));
    }

    /**
     * The two sides' windows do not end together: here the client's a second before the server's.
     * Once the client's loop has ended it re-posts no receive, so the server's last SENDs wait on
     * RNR (rnr_retry 7: for ever); the server still ends with its window, as perftest's does.
     */
    @Test
    void bidirectionalSendForADurationEndsWhenThePeersWindowEndedFirst() throws Exception {
        NicSessions p = NicSessions.runTapped(TestKind.SEND_BW, (server, port) -> port, List.of("-D", "1"),
                "-b", "-s", "4096", "-D", "2");
        ok(p);
        assertTrue(onlyBwLine(p.client).iterations() > 100, p.client.out());
        assertTrue(onlyBwLine(p.server).iterations() > 100, p.server.out());
        assertTrue(p.server.engine.nic().counters().get(NicCounter.RCVD_RNR_ERR) > 0,
                "the server's SENDs met a peer that re-posts no receive: " + p.server.engine.nic().counters());
    }

    @Test
    void writeBandwidthOnTwoQpsWithSmallMtu() throws Exception {
        NicSessions p = NicSessions.run(TestKind.WRITE_BW, "-s", "65536", "-n", "40", "-q", "2", "-m", "1024");
        ok(p);
        NicSessions.BwLine line = onlyBwLine(p.client);
        assertEquals(65536, line.size());
        assertEquals(80, line.iterations());
        assertTrue(p.client.out().contains("Mtu             : 1024[B]"), p.client.out());
        for (int qp = 0; qp < 2; qp++) {
            assertArrayEquals(slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(qp), 65536),
                    slice(p.server.engine.buffer(), p.server.engine.remoteSlotOffset(qp), 65536), "QP " + qp);
        }
        // 64 packets per message at MTU 1024
        assertTrue(p.client.engine.nic().counters().get(NicCounter.SENT_PKTS) >= 80 * 64);
    }

    @Test
    void readBandwidth() throws Exception {
        NicSessions p = NicSessions.run(TestKind.READ_BW, "-s", "4096", "-n", "200");
        ok(p);
        assertTrue(p.client.out().contains("RDMA_Read BW Test"), p.client.out());
        NicSessions.BwLine line = onlyBwLine(p.client);
        assertEquals(200, line.iterations());
        assertTrue(line.average() > 0);
        assertArrayEquals(slice(p.server.engine.buffer(), p.server.engine.remoteSlotOffset(0), 4096),
                slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(0), 4096));
    }

    @Test
    void sendBandwidth() throws Exception {
        NicSessions p = NicSessions.run(TestKind.SEND_BW, "-s", "4096", "-n", "200");
        ok(p);
        assertTrue(p.client.out().contains("Send BW Test"), p.client.out());
        NicSessions.BwLine client = onlyBwLine(p.client);
        NicSessions.BwLine server = onlyBwLine(p.server);
        assertEquals(200, client.iterations());
        assertEquals(200, server.iterations());
        assertTrue(client.average() > 0 && server.average() > 0);
        assertArrayEquals(slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(0), 4096),
                slice(p.server.engine.buffer(), p.server.engine.remoteSlotOffset(0), 4096));
        assertEquals(0, p.client.engine.nic().counters().get(NicCounter.RETRY_RNR_EXCEEDED_ERR));
    }

    @Test
    void udSendBandwidth() throws Exception {
        // fewer messages than the server's 512 receives: UD has no RNR, so none may find the queue empty
        NicSessions p = NicSessions.run(TestKind.SEND_BW, "-c", "UD", "-n", "300", "-m", "1024");
        ok(p);
        String out = p.client.out();
        assertTrue(out.contains("Connection type : UD"), out);
        // perftest's rule: a UD message is one MTU unless -s says less
        NicSessions.BwLine client = onlyBwLine(p.client);
        assertEquals(1024, client.size());
        assertEquals(300, client.iterations());
        assertEquals(300, onlyBwLine(p.server).iterations());
        // the message lands after the 40-byte GRH, on the receive slot's cache line
        assertArrayEquals(slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(0), 1024),
                slice(p.server.engine.buffer(), p.server.engine.receivedMessageOffset(0), 1024));
        // UD: one packet per message and no ACKs
        assertEquals(300, p.client.engine.nic().counters().get(NicCounter.SENT_PKTS));
        assertEquals(0, p.server.engine.nic().counters().get(NicCounter.SENT_PKTS));
    }

    @Test
    void sendBandwidthThroughSharedReceiveQueue() throws Exception {
        NicSessions p = NicSessions.run(TestKind.SEND_BW, "--use-srq", "-q", "2", "-s", "2048", "-n", "100");
        ok(p);
        assertEquals(200, onlyBwLine(p.server).iterations());
        // any QP's message may land in any posted buffer of the SRQ: each buffer holds one of the two
        byte[] sent0 = slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(0), 2048);
        byte[] sent1 = slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(1), 2048);
        for (int qp = 0; qp < 2; qp++) {
            byte[] got = slice(p.server.engine.buffer(), p.server.engine.remoteSlotOffset(qp), 2048);
            assertTrue(Arrays.equals(got, sent0) || Arrays.equals(got, sent1), "buffer " + qp);
        }
        // both server QPs took their receives from one SRQ (which may run dry for a moment: perftest
        // caps rx_depth at the iterations and splits it over the QPs, and RNR NAKs then pace the sender)
        assertNotNull(p.server.engine.qp(0).srq());
        assertSame(p.server.engine.qp(0).srq(), p.server.engine.qp(1).srq());
    }

    @Test
    void udSendLatency() throws Exception {
        NicSessions p = NicSessions.run(TestKind.SEND_LAT, "-c", "UD", "-s", "32", "-n", "100");
        ok(p);
        for (NicSessions.Side side : List.of(p.client, p.server)) {
            List<NicSessions.LatLine> lines = NicSessions.LatLine.all(side.out());
            assertEquals(1, lines.size(), side.out());
            assertEquals(32, lines.get(0).size());
            assertEquals(100, lines.get(0).iterations());
        }
        assertArrayEquals(slice(p.client.engine.buffer(), p.client.engine.localSlotOffset(0), 32),
                slice(p.server.engine.buffer(), p.server.engine.receivedMessageOffset(0), 32));
        assertEquals(100, p.client.engine.nic().counters().get(NicCounter.SENT_PKTS));
        assertEquals(100, p.server.engine.nic().counters().get(NicCounter.SENT_PKTS));
    }

    @Test
    void atomicBandwidth() throws Exception {
        NicSessions p = NicSessions.run(TestKind.ATOMIC_BW, "-n", "200");
        ok(p);
        assertTrue(p.client.out().contains("Atomic FETCH_AND_ADD BW Test"), p.client.out());
        NicSessions.BwLine line = onlyBwLine(p.client);
        assertEquals(8, line.size());
        assertEquals(200, line.iterations());
        // every fetch-and-add added 1; the last one returned the value before it
        long target = p.server.engine.wordAt(p.server.engine.remoteSlotOffset(0));
        long returned = p.client.engine.wordAt(p.client.engine.localSlotOffset(0));
        assertEquals(returned + 1, target);
    }

    @Test
    void writeLatency() throws Exception {
        NicSessions p = NicSessions.run(TestKind.WRITE_LAT, "-s", "64", "-n", "100");
        ok(p);
        for (NicSessions.Side side : List.of(p.client, p.server)) {
            assertTrue(side.out().contains("RDMA_Write Latency Test"), side.out());
            List<NicSessions.LatLine> lines = NicSessions.LatLine.all(side.out());
            assertEquals(1, lines.size(), side.out());
            NicSessions.LatLine l = lines.get(0);
            assertEquals(64, l.size());
            assertEquals(100, l.iterations());
            double min = l.stats()[0];
            double max = l.stats()[1];
            assertTrue(min > 0 && max >= min, side.out());
            // the last byte of each side's buffer holds the peer's last iteration number
            assertEquals(100, side.engine.buffer()[side.engine.remoteSlotOffset(0) + 63]);
        }
    }

    @Test
    void otherLatencyTools() throws Exception {
        for (TestKind kind : List.of(TestKind.SEND_LAT, TestKind.READ_LAT, TestKind.ATOMIC_LAT)) {
            NicSessions p = NicSessions.run(kind, "-n", "50");
            ok(p);
            List<NicSessions.LatLine> lines = NicSessions.LatLine.all(p.client.out());
            assertEquals(1, lines.size(), kind + " " + p.client);
            assertEquals(50, lines.get(0).iterations());
            assertTrue(lines.get(0).stats()[0] > 0);
        }
    }
}
