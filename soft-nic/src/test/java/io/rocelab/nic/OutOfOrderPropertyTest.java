package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.codec.ib.Opcode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random mixes of SEND, WRITE, WRITE with immediate and READ, their request packets delivered in a
 * random permutation (some twice) to a QP with out-of-order data placement, all within its reorder
 * window: no NAK, nothing resent, ACKs never go back, every WR and every receive completes once in
 * order, and memory ends byte-exact. The permutation's seed is part of the example.
 */
class OutOfOrderPropertyTest {
    private static final int MTU = ReorderRig.MTU;
    private static final int SLOT = 5 * MTU;

    enum Kind { SEND, WRITE, WRITE_IMM, READ }

    record Op(Kind kind, int length) {
        int psns() {
            return Math.max(1, (length + MTU - 1) / MTU);
        }
    }

    record Scenario(long seed, List<Op> ops, int duplicates) {
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(1, SLOT))
                .as(Op::new);
        return Combinators.combine(Arbitraries.longs(), op.list().ofMinSize(1).ofMaxSize(20),
                Arbitraries.integers().between(0, 3)).as(Scenario::new);
    }

    /**
     * READs whose responses come back permuted (some twice) to a requester with out-of-order data
     * placement: each READ completes once, in order, byte-exact, asked for once.
     */
    @Property(tries = 20)
    void permutedReadResponsesCompleteWithoutAskingAgain(@ForAll("reads") List<Integer> lengths,
                                                         @ForAll long seed) {
        Random rnd = new Random(seed);
        try (ReorderRig r = new ReorderRig(true, false, Requester.MAX_UNACKED_PSNS)) {
            byte[] local = new byte[lengths.size() * SLOT];
            byte[] remote = new byte[lengths.size() * SLOT];
            rnd.nextBytes(remote);
            MemoryRegion mrA = r.pdA.registerMr(local, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(remote, 0x900000, AccessFlags.ALL);
            int responses = 0;
            List<SendWr> wrs = new ArrayList<>();
            for (int i = 0; i < lengths.size(); i++) {
                int at = i * SLOT;
                wrs.add(SendWr.read(i, Sge.of(mrA, at, lengths.get(i)), 0x900000L + at, mrB.rkey()).signaled(true));
                responses += (lengths.get(i) + MTU - 1) / MTU;
            }
            r.reorderB.holdResponses(responses);
            r.qpA.postSend(wrs.toArray(SendWr[]::new));
            int total = responses;
            assertTrue(r.runUntil(() -> r.reorderB.held() == total, 1_000_000_000L));
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < responses; i++) {
                order.add(i);
            }
            Collections.shuffle(order, rnd);
            order.add(rnd.nextInt(order.size() + 1), rnd.nextInt(responses));
            r.reorderB.release(order.stream().mapToInt(Integer::intValue).toArray());
            assertTrue(r.runUntil(() -> r.cqA.size() == lengths.size(), 1_000_000_000L), "no timeout needed");
            List<WorkCompletion> done = NicRig.drain(r.cqA);
            for (int i = 0; i < lengths.size(); i++) {
                assertEquals(i, done.get(i).wrId());
                assertEquals(WcStatus.SUCCESS, done.get(i).status());
                int at = i * SLOT;
                assertArrayEquals(Arrays.copyOfRange(remote, at, at + lengths.get(i)),
                        Arrays.copyOfRange(local, at, at + lengths.get(i)), "READ " + i);
            }
            assertEquals(lengths.size(), r.from("a").stream().filter(s -> s.opcode().has(Opcode.REQUEST)).count(),
                    "each READ asked once");
        }
    }

    @Provide
    Arbitrary<List<Integer>> reads() {
        return Arbitraries.integers().between(1, SLOT).list().ofMinSize(1).ofMaxSize(16);
    }

    @Property(tries = 30)
    void permutedWithinTheWindowEverythingCompletesOnceInOrderByteExactWithoutNak(@ForAll("scenarios") Scenario sc) {
        List<Op> ops = sc.ops();
        int packets = 0;
        for (Op o : ops) {
            packets += o.kind() == Kind.READ ? 1 : o.psns();
        }
        Random rnd = new Random(sc.seed());
        try (ReorderRig r = new ReorderRig(true)) {
            byte[] srcA = new byte[ops.size() * SLOT];
            byte[] readA = new byte[ops.size() * SLOT];
            byte[] memB = new byte[ops.size() * SLOT];
            rnd.nextBytes(srcA);
            byte[] expectB = memB.clone();
            MemoryRegion mrA = r.pdA.registerMr(srcA, 0x100000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrRead = r.pdA.registerMr(readA, 0x500000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = r.pdB.registerMr(memB, 0x900000, AccessFlags.ALL);
            List<SendWr> wrs = new ArrayList<>();
            int receives = 0;
            for (int i = 0; i < ops.size(); i++) {
                Op o = ops.get(i);
                int at = i * SLOT;
                switch (o.kind()) {
                    case READ -> {
                        byte[] data = new byte[o.length()];
                        rnd.nextBytes(data);
                        System.arraycopy(data, 0, memB, at, data.length);
                        System.arraycopy(data, 0, expectB, at, data.length);
                        wrs.add(SendWr.read(i, Sge.of(mrRead, at, o.length()), 0x900000L + at, mrB.rkey()));
                    }
                    case SEND -> {
                        r.qpB.postRecv(new RecvWr(i, Sge.of(mrB, at, SLOT)));
                        receives++;
                        wrs.add(SendWr.send(i, Sge.of(mrA, at, o.length())));
                    }
                    case WRITE -> wrs.add(SendWr.write(i, Sge.of(mrA, at, o.length()), 0x900000L + at, mrB.rkey()));
                    case WRITE_IMM -> {
                        r.qpB.postRecv(new RecvWr(i));
                        receives++;
                        wrs.add(new SendWr(i, WrOpcode.RDMA_WRITE_WITH_IMM).sgl(Sge.of(mrA, at, o.length()))
                                .remote(0x900000L + at, mrB.rkey()).imm(i));
                    }
                    default -> throw new AssertionError();
                }
                if (o.kind() != Kind.READ) {
                    System.arraycopy(srcA, at, expectB, at, o.length());
                }
            }
            r.reorder.hold(packets);
            r.qpA.postSend(wrs.stream().map(w -> w.signaled(true)).toArray(SendWr[]::new));
            int total = packets;
            assertTrue(r.runUntil(() -> r.reorder.held() == total, 1_000_000_000L));
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < packets; i++) {
                order.add(i);
            }
            Collections.shuffle(order, rnd);
            for (int d = 0; d < sc.duplicates(); d++) {
                order.add(rnd.nextInt(order.size() + 1), rnd.nextInt(packets));
            }
            r.reorder.release(order.stream().mapToInt(Integer::intValue).toArray());
            int expectedRecv = receives;
            assertTrue(r.runUntil(() -> r.cqA.size() == ops.size() && r.cqB.size() == expectedRecv, 1_000_000_000L),
                    "everything completes before any timeout: " + sc);
            List<WorkCompletion> sent = NicRig.drain(r.cqA);
            for (int i = 0; i < ops.size(); i++) {
                assertEquals(i, sent.get(i).wrId(), "in order");
                assertEquals(WcStatus.SUCCESS, sent.get(i).status());
            }
            long last = -1;
            for (WorkCompletion wc : NicRig.drain(r.cqB)) {
                assertEquals(WcStatus.SUCCESS, wc.status());
                assertTrue(wc.wrId() > last, "receives in order");
                last = wc.wrId();
                assertEquals(ops.get((int) wc.wrId()).length(), wc.byteLen());
            }
            assertArrayEquals(expectB, memB, "b's memory byte for byte");
            for (int i = 0; i < ops.size(); i++) {
                if (ops.get(i).kind() == Kind.READ) {
                    int at = i * SLOT;
                    assertArrayEquals(Arrays.copyOfRange(memB, at, at + ops.get(i).length()),
                            Arrays.copyOfRange(readA, at, at + ops.get(i).length()), "READ " + i);
                }
            }
            assertTrue(r.naks().isEmpty(), "no NAK: " + r.naks());
            assertEquals(packets, r.from("a").stream().filter(s -> s.opcode().has(Opcode.REQUEST)).count(),
                    "nothing resent");
            int prev = -1;
            for (WireTap.Seen ack : r.acks()) {
                int rel = io.rocelab.codec.ib.Psn.diff(ack.psn(), NicRig.PSN_A);
                assertTrue(rel >= prev, "ACKs are cumulative: they never go back");
                prev = rel;
            }
        }
    }
}
