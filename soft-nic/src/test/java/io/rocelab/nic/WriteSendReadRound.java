package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * One RDMA WRITE, SEND and RDMA READ of the same random bytes from QP A to QP B on a real-time
 * path, waited for by polling both CQs, and checked end to end: completions in order with SUCCESS,
 * the receive's length, and the bytes at every destination.
 */
final class WriteSendReadRound {
    private WriteSendReadRound() {
    }

    /**
     * @param unit  spacing of the four regions' virtual addresses (at least {@code size})
     * @param state what to add to a failure message (counters)
     */
    static void run(ProtectionDomain pdA, ProtectionDomain pdB, QueuePair qpA, QueuePair qpB, CompletionQueue cqA,
                    CompletionQueue cqB, int size, long seed, long unit, Supplier<String> state)
            throws InterruptedException {
        byte[] src = new byte[size];
        new Random(seed).nextBytes(src);
        byte[] remote = new byte[size];
        byte[] recv = new byte[size];
        byte[] readBack = new byte[size];
        MemoryRegion mrSrc = pdA.registerMr(src, unit, AccessFlags.LOCAL_WRITE);
        MemoryRegion mrRead = pdA.registerMr(readBack, 4 * unit, AccessFlags.LOCAL_WRITE);
        MemoryRegion mrRemote = pdB.registerMr(remote, 8 * unit, AccessFlags.ALL);
        MemoryRegion mrRecv = pdB.registerMr(recv, 12 * unit, AccessFlags.LOCAL_WRITE);
        qpB.postRecv(new RecvWr(100, Sge.of(mrRecv)));
        qpA.postSend(SendWr.write(1, Sge.of(mrSrc), 8 * unit, mrRemote.rkey()),
                SendWr.send(2, Sge.of(mrSrc)),
                SendWr.read(3, Sge.of(mrRead), 8 * unit, mrRemote.rkey()));

        List<WorkCompletion> wcA = new ArrayList<>();
        List<WorkCompletion> wcB = new ArrayList<>();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while ((wcA.size() < 3 || wcB.size() < 1) && System.nanoTime() < deadline) {
            cqA.poll(16, wcA);
            cqB.poll(16, wcB);
            Thread.sleep(1);
        }
        assertEquals(3, wcA.size(), () -> "completions at A: " + wcA + state.get());
        for (int i = 0; i < 3; i++) {
            assertEquals(i + 1, wcA.get(i).wrId());
            assertEquals(WcStatus.SUCCESS, wcA.get(i).status(), state);
        }
        assertEquals(1, wcB.size(), () -> "completions at B: " + wcB + state.get());
        assertEquals(WcOpcode.RECV, wcB.get(0).opcode());
        assertEquals(WcStatus.SUCCESS, wcB.get(0).status());
        assertEquals(size, wcB.get(0).byteLen());
        assertArrayEquals(src, remote, "WRITE");
        assertArrayEquals(src, recv, "SEND");
        assertArrayEquals(src, readBack, "READ");
    }
}
