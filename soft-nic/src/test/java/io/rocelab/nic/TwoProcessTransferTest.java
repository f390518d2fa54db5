package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.udp.UdpFramePort;
import io.rocelab.nic.stats.NicCounter;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The two-NIC transfer between two processes (issue 3, "over a frame-over-UDP link between two
 * processes on 127.0.0.1"): this JVM is the requester, a second JVM running {@link UdpPeerMain}
 * the responder. QP attributes go over the child's stdin/stdout; frames go over UDP, one Ethernet
 * frame per datagram, ARP included. WRITE, SEND and READ of 64 KB each are checked byte for byte
 * (the READ reads back both the child's own pattern and what the WRITE put there). Every wait is
 * bounded and the child is always killed.
 */
class TwoProcessTransferTest {
    private static final long STEP_SECONDS = 30;

    @Test
    void rcWriteSendReadBetweenTwoJvms() throws Exception {
        Path childErr = Files.createTempFile("udp-peer-", ".err");
        Process child = null;
        try (RealTimeScheduler sched = RealTimeScheduler.start("nic-a");
             UdpFramePort port = UdpFramePort.builder().name("a")
                     .localAddress(new InetSocketAddress("127.0.0.1", 0)).open(sched)) {
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            child = new ProcessBuilder(javaBin, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                    UdpPeerMain.class.getName(), Integer.toString(port.localAddress().getPort()))
                    .redirectError(childErr.toFile()).start();
            BlockingQueue<String> lines = readLines(child);
            PrintStream toChild = new PrintStream(child.getOutputStream(), true, StandardCharsets.US_ASCII);

            String[] ready = expect(lines, "READY", child, childErr);
            int childUdpPort = Integer.parseInt(ready[2]);
            int childQpn = Integer.parseInt(ready[3]);
            int childPsn = Integer.parseInt(ready[4]);
            int rkey = Integer.parseInt(ready[5]);
            long vaddr = Long.parseLong(ready[6]);
            port.setRemoteAddress(new InetSocketAddress("127.0.0.1", childUdpPort));

            SoftNic a = SoftNic.builder().name("a").mac("52:54:00:77:00:01").ipv4(NicRig.IP_A).activeMtu(4096)
                    .scheduler(sched).port(port).build();
            try {
                ProtectionDomain pd = a.allocPd();
                CompletionQueue cq = a.createCq(64);
                QueuePair qp = a.createQp(pd, QpType.RC, cq, cq, QpCaps.defaults());
                qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.ALL));
                qp.modify(new QpAttr().state(QpState.RTR).av(AddressHandle.ipv4(NicRig.IP_B)).pathMtu(4096)
                        .destQpn(childQpn).rqPsn(childPsn).maxDestRdAtomic(16).minRnrTimer(12));
                qp.modify(new QpAttr().state(QpState.RTS).sqPsn(NicRig.PSN_A).timeout(UdpPeerMain.ACK_TIMEOUT).retryCnt(7)
                        .rnrRetry(7).maxRdAtomic(16));
                toChild.println(qp.qpn() + " " + NicRig.PSN_A);
                expect(lines, "RTS", child, childErr);

                int size = UdpPeerMain.SIZE;
                byte[] src = new byte[size];
                new Random(7).nextBytes(src);
                byte[] readSource = new byte[size];
                new Random(UdpPeerMain.READ_SOURCE_SEED).nextBytes(readSource);
                byte[] readBack = new byte[2 * size];
                MemoryRegion mrSrc = pd.registerMr(src, 0x10000, AccessFlags.LOCAL_WRITE);
                MemoryRegion mrRead = pd.registerMr(readBack, 0x100000, AccessFlags.LOCAL_WRITE);
                qp.postSend(SendWr.write(1, Sge.of(mrSrc), vaddr + size, rkey).signaled(true),
                        SendWr.send(2, Sge.of(mrSrc)).signaled(true),
                        SendWr.read(3, Sge.of(mrRead, 0, size), vaddr, rkey).signaled(true),
                        SendWr.read(4, Sge.of(mrRead, size, size), vaddr + size, rkey).signaled(true));

                List<WorkCompletion> wcs = new ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS);
                while (wcs.size() < 4 && System.nanoTime() < deadline && child.isAlive()) {
                    cq.poll(16, wcs);
                    Thread.sleep(1);
                }
                assertEquals(4, wcs.size(), "completions: " + wcs + " " + a.counters() + childLog(childErr));
                WcOpcode[] ops = {WcOpcode.RDMA_WRITE, WcOpcode.SEND, WcOpcode.RDMA_READ, WcOpcode.RDMA_READ};
                for (int i = 0; i < 4; i++) {
                    assertEquals(i + 1, wcs.get(i).wrId());
                    assertEquals(WcStatus.SUCCESS, wcs.get(i).status(), wcs.get(i) + " " + a.counters() + " " + port.counters());
                    assertEquals(ops[i], wcs.get(i).opcode());
                    assertEquals(size, wcs.get(i).byteLen());
                }
                assertArrayEquals(readSource, Arrays.copyOf(readBack, size), "READ of the child's memory");
                assertArrayEquals(src, Arrays.copyOfRange(readBack, size, 2 * size),
                        "READ back of what the WRITE put there");

                String[] recv = expect(lines, "RECV", child, childErr);
                assertEquals("SUCCESS", recv[2]);
                assertEquals(size, Integer.parseInt(recv[3]));
                assertEquals(UdpPeerMain.sha256(src, 0, size), recv[4], "the SEND landed byte for byte");
                toChild.println("DIGEST");
                assertEquals(UdpPeerMain.sha256(src, 0, size), expect(lines, "MEM", child, childErr)[2],
                        "the WRITE target in the child");
                assertTrue(a.counters().get(NicCounter.ARP_REQUESTS_SENT) >= 1, "the peer's MAC came from ARP");
                assertEquals(0, a.counters().get(NicCounter.DROP_BAD_ICRC));
                toChild.close();
                assertTrue(child.waitFor(STEP_SECONDS, TimeUnit.SECONDS), "the child exits at end of input");
                assertEquals(0, child.exitValue(), childLog(childErr));
            } finally {
                a.close();
            }
        } finally {
            if (child != null) {
                child.destroyForcibly();
                child.waitFor(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(childErr);
        }
    }

    /** The child's stdout, line by line, read on a daemon thread so that every wait can be bounded. */
    private static BlockingQueue<String> readLines(Process child) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                for (String line; (line = r.readLine()) != null; ) {
                    q.add(line);
                }
            } catch (IOException e) {
                // the child is gone; the waiting side times out with the child's log
            }
        }, "udp-peer-stdout");
        t.setDaemon(true);
        t.start();
        return q;
    }

    /** Waits (bounded) for the child's next {@code PEER <word> ...} line and returns its fields. */
    private static String[] expect(BlockingQueue<String> lines, String word, Process child, Path err)
            throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line == null) {
                if (!child.isAlive() && lines.isEmpty()) {
                    break;
                }
                continue;
            }
            String[] f = line.trim().split(" ");
            if (f.length >= 2 && f[0].equals(UdpPeerMain.TAG) && f[1].equals(word)) {
                return f;
            }
        }
        assertNotNull(null, "no '" + UdpPeerMain.TAG + " " + word + "' from the child (alive=" + child.isAlive()
                + ")" + childLog(err));
        return null;
    }

    private static String childLog(Path err) throws IOException {
        File f = err.toFile();
        return f.exists() ? "\nchild stderr:\n" + Files.readString(err) : "";
    }
}
