package io.rocelab.lab.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.LinkCounter;
import io.rocelab.nic.stats.NicCounter;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.nic.HostPair;
import io.rocelab.sw.config.ConfigLoader;
import io.rocelab.sw.config.SwitchConfig;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's lab (host-a -- leaf -- host-b, real time) is lossless: with nothing injected, its RC
 * QPs never retransmit, also when the leaf pauses host-a (whose NIC ignores PFC) and when a thread of
 * the lab waits for a core.
 */
@Timeout(120)
class LeafFabricTest {

    /**
     * The leaf builds its PFC pauses from its own frame pool. Netty 4.2's default allocator records
     * a JFR event ({@code io.netty.AllocateChunk}) for each chunk it takes, and the first event class
     * loaded in a JVM makes the JDK initialize the Flight Recorder on that thread: 130-500 ms here,
     * in which the leaf forwarded nothing, longer than host-a's 67 ms ACK timer (every demo run that
     * paused host-a resent 128 packets). Recorded here: no chunk is taken on the leaf's thread.
     */
    @Test
    void theLeafPausesHostAWithoutTakingAChunkFromNettysPool(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("leaf.jfr");
        long xoffs;
        String leafThread;
        try (Recording recording = new Recording()) {
            recording.enable("io.netty.AllocateChunk");
            recording.start();
            try (LeafFabric lab = new LeafFabric(pausingOnTheFirstFrame(), null, 0)) {
                leafThread = lab.onLeaf(() -> Thread.currentThread().getName());
                Run r = run(lab, TestKind.WRITE_BW, "-s", "4096", "-n", "50");
                assertEquals(0, r.result.status(), r.output);
                xoffs = lab.leaf.countersSnapshot().ports().get(lab.config.portIndex(LeafFabric.PORT_A)).txPfc[3];
            }
            recording.stop();
            recording.dump(jfr);
        }
        assertTrue(xoffs > 0, "the leaf paused host-a on priority 3");
        List<String> onLeaf = RecordingFile.readAllEvents(jfr).stream()
            .filter(e -> e.getThread() != null && leafThread.equals(e.getThread().getJavaName()))
            .map(RecordedEvent::toString)
            .toList();
        assertEquals(List.of(), onLeaf, "Netty pool chunks taken on the leaf's thread");
    }

    /**
     * The demo's QPs use a 1.07 s local ACK timeout ({@code -u 18}): a 200 ms wait of the leaf's
     * thread, as when the machine gives its core to another process, is no lost frame and costs no
     * retransmission (with perftest's 67 ms, host-a resent its whole window).
     */
    @Test
    void aLeafThatWaitsForACoreCostsTheDemosQpsNoRetransmission() throws Exception {
        try (LeafFabric lab = new LeafFabric(null, 0)) {
            List<String> args = DemoOptions.defaults().writeBwArgs();
            CompletableFuture<Run> run = CompletableFuture.supplyAsync(
                () -> run(lab, TestKind.WRITE_BW, args.toArray(new String[0])));
            long fromHostA;
            do {
                fromHostA = lab.linkA.aToB().counters().get(LinkCounter.FRAMES_DELIVERED);
                Thread.onSpinWait();
            } while (fromHostA < 2_000 && !run.isDone());
            assertFalse(run.isDone(), "the stall comes while host-a streams");
            lab.onLeaf(() -> {
                Thread.sleep(200); // the leaf's thread is not running: nothing crosses the leaf meanwhile
                return null;
            });
            Run r = run.get(60, TimeUnit.SECONDS);
            assertEquals(0, r.result.status(), r.output);
            assertEquals(0, r.result.clientCounters().getOrDefault(NicCounter.COMPLETER_RETRY_ERR, 0L), r.output);
            assertEquals(0, r.result.serverCounters().getOrDefault(NicCounter.DUPLICATE_REQUEST, 0L), r.output);
            assertTrue(r.result.serverCounters().get(NicCounter.RCVD_PKTS) >= 2000 * 16, r.output);
        }
    }

    /** A tool's result and what it printed. */
    private record Run(HostPair.Result result, String output) {
    }

    private static Run run(LeafFabric lab, TestKind kind, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        HostPair.Result r = lab.hosts.run(kind, args, out, out);
        return new Run(r, bytes.toString(StandardCharsets.UTF_8));
    }

    /** The demo's leaf with the lossless PG's shared limit at 1 byte (static_th) and nothing reserved: every RoCE frame pauses host-a. */
    private static SwitchConfig pausingOnTheFirstFrame() throws Exception {
        String json;
        try (InputStream in = LeafFabric.class.getResourceAsStream(LeafFabric.CONFIG_RESOURCE)) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String pausing = json.replace("\"xon\": \"18432\"", "\"xon\": \"0\"")
            .replace("\"size\": \"91136\"", "\"size\": \"0\"").replace("\"dynamic_th\": \"0\"", "\"static_th\": \"1\"");
        assertNotEquals(json, pausing, "the demo's lossless profile changed: update this test");
        return ConfigLoader.parse(pausing);
    }
}
