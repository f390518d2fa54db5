package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.fabric.link.FaultProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random mixes of RC work requests over a link with 5 % loss plus reordering, duplication and
 * corruption (both ways): memory ends byte-exact, every WR completes exactly once, in order, with
 * SUCCESS, and within a bounded virtual time. The seed of the link is part of the example, so a
 * failure replays exactly.
 */
class LossyLinkPropertyTest {
    private static final FaultProfile FAULTS = FaultProfile.NONE.withLoss(0.05).withReordering(0.05, 3_000, 2)
            .withDuplication(0.03).withCorruption(0.02);
    private static final long VA_A = 0x10_0000L;
    private static final long VA_B = 0x90_0000L;
    private static final int SLOT = 6000;

    enum Kind { SEND, WRITE, WRITE_IMM, READ, FETCH_ADD, CMP_SWAP }

    record Op(Kind kind, int length) {
    }

    record Scenario(long seed, int mtu, List<Op> ops) {
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.of(Kind.class),
                Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0, 64)),
                        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(65, SLOT))))
                .as(Op::new);
        return Combinators.combine(Arbitraries.longs(), Arbitraries.of(256, 1024, 4096),
                op.list().ofMinSize(1).ofMaxSize(24)).as(Scenario::new);
    }

    @Property(tries = 40)
    void everyWrCompletesOnceInOrderAndMemoryIsExact(@ForAll("scenarios") Scenario sc) {
        check(sc);
    }

    /**
     * A generation that once ran a 24-packet SEND (MTU 256) out of retries while PSN-sequence NAKs
     * kept moving it forward: such a NAK acknowledges the packets before it and must reload the
     * retry count.
     */
    @Property(tries = 40, seed = "8990284724035850706")
    void progressByNakReloadsTheRetryCount(@ForAll("scenarios") Scenario sc) {
        check(sc);
    }

    private static void check(Scenario sc) {
        try (NicRig p = NicRig.pair(QpType.RC, sc.mtu(), FAULTS, sc.seed(), 8, 7, 7, 1)) {
            int n = sc.ops().size();
            Random rnd = new Random(sc.seed());
            byte[] memA = new byte[n * SLOT];
            byte[] memB = new byte[n * SLOT + 8];
            rnd.nextBytes(memA);
            rnd.nextBytes(memB);
            Memory.putLongLE(memB, n * SLOT, 0);
            byte[] expectA = memA.clone();
            byte[] expectB = memB.clone();
            byte[] recvBuf = new byte[n * SLOT];
            byte[] expectRecv = new byte[n * SLOT];
            MemoryRegion mrA = p.pdA.registerMr(memA, VA_A, AccessFlags.ALL);
            MemoryRegion mrB = p.pdB.registerMr(memB, VA_B, AccessFlags.ALL);
            MemoryRegion mrR = p.pdB.registerMr(recvBuf, 0x5_0000_0000L, AccessFlags.LOCAL_WRITE);
            long counter = 0;
            List<SendWr> wrs = new ArrayList<>();
            List<Integer> recvLens = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Op op = sc.ops().get(i);
                int off = i * SLOT;
                Sge local = Sge.of(mrA, off, op.length());
                long remote = VA_B + off;
                switch (op.kind()) {
                    case SEND -> {
                        p.qpB.postRecv(new RecvWr(1000 + i, Sge.of(mrR, off, SLOT)));
                        recvLens.add(op.length());
                        System.arraycopy(memA, off, expectRecv, off, op.length());
                        wrs.add(SendWr.send(i, local));
                    }
                    case WRITE -> {
                        System.arraycopy(memA, off, expectB, off, op.length());
                        wrs.add(SendWr.write(i, local, remote, mrB.rkey()));
                    }
                    case WRITE_IMM -> {
                        p.qpB.postRecv(new RecvWr(1000 + i));
                        recvLens.add(op.length());
                        System.arraycopy(memA, off, expectB, off, op.length());
                        wrs.add(new SendWr(i, WrOpcode.RDMA_WRITE_WITH_IMM).sgl(local).remote(remote, mrB.rkey())
                                .imm(i));
                    }
                    case READ -> {
                        System.arraycopy(memB, off, expectA, off, op.length());
                        wrs.add(SendWr.read(i, local, remote, mrB.rkey()));
                    }
                    case FETCH_ADD -> {
                        Memory.putLongLE(expectA, off, counter);
                        counter += i + 1;
                        wrs.add(SendWr.fetchAdd(i, Sge.of(mrA, off, 8), VA_B + n * SLOT, mrB.rkey(), i + 1));
                    }
                    case CMP_SWAP -> {
                        Memory.putLongLE(expectA, off, counter);
                        long swap = counter * 3 + 1;
                        wrs.add(SendWr.compareSwap(i, Sge.of(mrA, off, 8), VA_B + n * SLOT, mrB.rkey(), counter,
                                swap));
                        counter = swap;
                    }
                    default -> throw new IllegalStateException();
                }
            }
            Memory.putLongLE(expectB, n * SLOT, counter);
            p.qpA.postSend(wrs.toArray(SendWr[]::new));
            int recvs = recvLens.size();
            boolean done = p.runUntil(() -> p.cqA.size() >= n && p.cqB.size() >= recvs, 60_000_000_000L);
            assertTrue(done, "bounded virtual time: " + p.cqA.size() + "/" + n + " at " + p.sched.nanoTime()
                    + " seed " + sc.seed() + " " + p.a.counters());
            p.runUntil(() -> false, 1_000_000_000L); // late duplicates must not complete anything twice
            List<WorkCompletion> wcs = NicRig.drain(p.cqA);
            assertEquals(n, wcs.size());
            for (int i = 0; i < n; i++) {
                assertEquals(i, wcs.get(i).wrId(), "in order");
                assertEquals(WcStatus.SUCCESS, wcs.get(i).status(), wcs.get(i).toString());
            }
            List<WorkCompletion> rwcs = NicRig.drain(p.cqB);
            assertEquals(recvs, rwcs.size());
            for (int i = 0; i < recvs; i++) {
                assertEquals(WcStatus.SUCCESS, rwcs.get(i).status());
                assertEquals((int) recvLens.get(i), rwcs.get(i).byteLen());
            }
            assertArrayEquals(expectB, memB, "remote memory");
            assertArrayEquals(expectA, memA, "local memory (READ and atomic results)");
            assertTrue(Arrays.equals(expectRecv, recvBuf), "received SEND data");
        }
    }
}
