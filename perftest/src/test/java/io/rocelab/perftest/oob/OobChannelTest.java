package io.rocelab.perftest.oob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.perftest.Mtu;
import io.rocelab.perftest.oob.BwResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Both sides of each exchange over a real TCP connection on 127.0.0.1. */
@Timeout(30)
class OobChannelTest {
    private static final Duration IO = Duration.ofSeconds(10);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static Gid gid(String ip) throws IOException {
        return Gid.of(InetAddress.getByName(ip));
    }

    private static OobServer listen() throws IOException {
        return OobServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @Test
    void perftestHandshakeBetweenClientAndServer() throws Exception {
        KeyRecord serverKey = new KeyRecord(0, 1, 0x12, 0xabcdef, 0x259, 0x557351d19000L, gid("10.77.0.10"), 0);
        KeyRecord clientKey = new KeyRecord(0, 1, 0x11, 0x38277a, 0x2d2, 0x55933fbb7000L, gid("10.77.0.11"), 0);
        BwResult clientReport = new BwResult(4096, 100, 6.27, 5.65, 0.001446);
        List<String> serverTrace = Collections.synchronizedList(new ArrayList<>());

        OobServer server = listen();
        Future<Object[]> serverSide = pool.submit(() -> {
            try (OobChannel ch = server.accept(IO, IO)) {
                ch.trace(new OobTrace() {
                    @Override
                    public void sent(String what, byte[] bytes) {
                        serverTrace.add("sent " + what + " " + bytes.length);
                    }

                    @Override
                    public void received(String what, byte[] bytes) {
                        serverTrace.add("received " + what + " " + bytes.length);
                    }
                });
                PerftestOob oob = new PerftestOob(ch);
                Negotiated n = oob.setUp(PerftestVersion.rocelab(), new SystemData(4096, 128), Mtu.MTU_1024, true);
                KeyRecord theirs = oob.handshake(serverKey);
                BwResult report = oob.exchangeBwReport(new BwResult(0, 0, 0, 0, 0));
                oob.close(serverKey);
                return new Object[] {n, theirs, report};
            }
        });

        Negotiated clientView;
        KeyRecord fromServer;
        try (OobChannel ch = OobChannel.connect("127.0.0.1", server.port(), IO)) {
            assertEquals(OobChannel.Role.CLIENT, ch.role());
            PerftestOob oob = new PerftestOob(ch);
            clientView = oob.setUp(PerftestVersion.rocelab(), new SystemData(4096, 64), Mtu.MTU_4096, true);
            fromServer = oob.handshake(clientKey);
            oob.exchangeBwReport(clientReport);
            oob.handshake(clientKey);
            assertArrayEquals(DoneMessage.encode(), ch.read("done", 5));
            ch.write("done", DoneMessage.encode());
        }
        Object[] s = serverSide.get(20, TimeUnit.SECONDS);

        assertEquals(serverKey, fromServer);
        assertEquals(clientKey, s[1]);
        assertEquals(clientReport, s[2]);
        Negotiated serverView = (Negotiated) s[0];
        for (Negotiated n : List.of(clientView, serverView)) {
            assertEquals("6.06", n.peerVersion().text());
            assertEquals(new SystemData(4096, 128), n.systemData());
            assertEquals(Mtu.MTU_1024, n.mtu());
        }
        assertEquals(List.of("received version 16", "sent version 16",
                "received cycle buffer 4", "sent cycle buffer 4",
                "received cache line size 4", "sent cache line size 4",
                "received MTU 2", "sent MTU 2",
                "received key record 108", "sent key record 108",
                "received BW report size 8", "sent BW report size 8",
                "received BW report iterations 8", "sent BW report iterations 8",
                "received BW report peak 8", "sent BW report peak 8",
                "received BW report average 8", "sent BW report average 8",
                "received BW report message rate 8", "sent BW report message rate 8",
                "received key record 108", "sent key record 108",
                "sent done 5"), serverTrace);
    }

    @Test
    void withoutVersionExchangeNothingIsSentBeforeTheKeys() throws Exception {
        OobServer server = listen();
        KeyRecord key = new KeyRecord(0, 1, 0x20, 0x1, 0, 0, null, 0);
        Future<KeyRecord> serverSide = pool.submit(() -> {
            try (OobChannel ch = server.accept(IO, IO)) {
                PerftestOob oob = new PerftestOob(ch);
                Negotiated n = oob.setUp(PerftestVersion.rocelab(), SystemData.DEFAULT, Mtu.MTU_2048, false);
                assertEquals(Mtu.MTU_2048, n.mtu());
                return oob.handshake(key);
            }
        });
        try (OobChannel ch = OobChannel.connect("127.0.0.1", server.port(), IO)) {
            PerftestOob oob = new PerftestOob(ch);
            oob.setUp(PerftestVersion.rocelab(), SystemData.DEFAULT, Mtu.MTU_1024, false);
            assertEquals(key, oob.handshake(key));
        }
        assertEquals(key, serverSide.get(20, TimeUnit.SECONDS));
    }

    @Test
    void peersOlderThan570AreRefused() throws Exception {
        OobServer server = listen();
        pool.submit(() -> {
            try (OobChannel ch = server.accept(IO, IO)) {
                ch.exchange("version", new PerftestVersion("5.60").encode());
                ch.read("anything", 1);
            }
            return null;
        });
        try (OobChannel ch = OobChannel.connect("127.0.0.1", server.port(), IO)) {
            OobProtocolException e = assertThrows(OobProtocolException.class,
                    () -> new PerftestOob(ch).setUp(PerftestVersion.rocelab(), SystemData.DEFAULT, Mtu.MTU_1024, true));
            assertTrue(e.getMessage().contains("not compatible with versions older than 5.70"), e.getMessage());
            assertTrue(e.getMessage().contains("5.60"), e.getMessage());
        }
    }

    @Test
    void aPeerThatLeavesMidExchangeIsReported() throws Exception {
        OobServer server = listen();
        pool.submit(() -> {
            try (OobChannel ch = server.accept(IO, IO)) {
                ch.read("key record", 108);
                ch.write("half", new byte[50]);
            }
            return null;
        });
        try (OobChannel ch = OobChannel.connect("127.0.0.1", server.port(), IO)) {
            KeyRecord k = new KeyRecord(0, 1, 1, 1, 1, 1, Gid.zero(), 0);
            OobProtocolException e = assertThrows(OobProtocolException.class, () -> new PerftestOob(ch).handshake(k));
            assertEquals("peer closed the connection after 50 of 108 bytes of the key record", e.getMessage());
        }
    }

    @Test
    void aSilentPeerTimesOut() throws Exception {
        OobServer server = listen();
        pool.submit(() -> {
            try (OobChannel ch = server.accept(IO, IO)) {
                Thread.sleep(5000);
                return ch.role();
            }
        });
        try (OobChannel ch = OobChannel.connect("127.0.0.1", server.port(), Duration.ofMillis(200))) {
            OobProtocolException e = assertThrows(OobProtocolException.class,
                    () -> ch.exchange("version", PerftestVersion.rocelab().encode()));
            assertTrue(e.getMessage().startsWith("timed out waiting for the version"), e.getMessage());
        }
    }

    @Test
    void connectingToNothingSaysWhere() throws Exception {
        int port;
        try (OobServer s = listen()) {
            port = s.port();
        }
        IOException e = assertThrows(IOException.class, () -> OobChannel.connect("127.0.0.1", port, IO));
        assertTrue(e.getMessage().startsWith("Couldn't connect to 127.0.0.1:" + port), e.getMessage());
    }

    @Test
    void pingpongExchange() throws Exception {
        PingpongRecord clientRecord = new PingpongRecord(0, 0x11, 0xc3aaf4, gid("10.77.0.11"));
        PingpongRecord serverRecord = new PingpongRecord(0, 0x11, 0xf170e4, gid("10.77.0.10"));
        OobServer server = listen();
        Future<PingpongRecord> serverSide = pool.submit(() -> {
            try (OobChannel ch = server.accept(IO, IO)) {
                return PingpongOob.server(ch, theirs -> {
                    assertEquals(clientRecord, theirs);
                    return serverRecord;
                });
            }
        });
        try (OobChannel ch = OobChannel.connect("127.0.0.1", server.port(), IO)) {
            assertEquals(serverRecord, PingpongOob.client(ch, clientRecord));
            assertThrows(IllegalStateException.class, () -> PingpongOob.server(ch, r -> r));
        }
        assertEquals(clientRecord, serverSide.get(20, TimeUnit.SECONDS));
    }
}
