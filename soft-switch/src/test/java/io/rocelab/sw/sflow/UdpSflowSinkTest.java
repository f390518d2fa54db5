package io.rocelab.sw.sflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.sw.config.SflowConfig;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The real-time sink: the bytes handed over on the caller's thread arrive at the collector's socket as one datagram. */
class UdpSflowSinkTest {

    @Test
    void aDatagramReachesTheCollectorAsItWasGiven() throws Exception {
        try (DatagramSocket collector = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             UdpSflowSink sink = new UdpSflowSink()) {
            collector.setSoTimeout(10_000);
            byte[] payload = new byte[300];
            Arrays.fill(payload, (byte) 0x5A);
            payload[0] = 0;
            payload[3] = 5;
            SflowConfig.Collector c = new SflowConfig.Collector("lab", "127.0.0.1", collector.getLocalPort(), null);
            sink.send(c, payload, 0);
            DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
            collector.receive(p);
            assertArrayEquals(payload, Arrays.copyOf(p.getData(), p.getLength()));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (sink.sent() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(1, sink.sent());
            assertEquals(0, sink.failed());
            assertTrue(p.getPort() > 0);
        }
    }
}
