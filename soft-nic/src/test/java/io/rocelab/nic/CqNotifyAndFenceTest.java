package io.rocelab.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.Bth;
import io.rocelab.codec.ib.Opcode;
import io.rocelab.fabric.link.FaultProfile;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Completion notification ({@code ibv_req_notify_cq}, IBA 11.4.2.2) and the fence indicator
 * (IBA 10.8.3, work request ordering): when a notification fires and when it does not, and where a fenced WR waits.
 */
class CqNotifyAndFenceTest {
    private static final long MS = 1_000_000L;

    private static boolean seBit(WireTap.Seen s) {
        ParsedFrame f = new ParsedFrame();
        f.parse(Unpooled.wrappedBuffer(s.bytes()));
        return Bth.solicited(f.buffer(), f.bthOffset()) != 0;
    }

    @Test
    void solicitedOnlyFiresOnASolicitedSendOnceAndNotOnAPlainOne() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 31)) {
            AtomicInteger fired = new AtomicInteger();
            p.cqB.onNotify(fired::incrementAndGet);
            MemoryRegion mrA = p.pdA.registerMr(new byte[3000], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[4096], 0x9000, AccessFlags.LOCAL_WRITE);
            for (int i = 0; i < 3; i++) {
                p.qpB.postRecv(new RecvWr(i, Sge.of(mrB)));
            }
            p.cqB.requestNotify(true);
            p.qpA.postSend(SendWr.send(1, Sge.of(mrA)));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 100 * MS));
            assertEquals(0, fired.get(), "a SEND without SE does not wake a solicited-only request");
            assertTrue(p.cqB.isArmed());

            p.qpA.postSend(SendWr.send(2, Sge.of(mrA)).solicited(true));
            assertTrue(p.runUntil(() -> p.cqB.size() == 2, 100 * MS));
            assertEquals(1, fired.get(), "the solicited SEND wakes it");
            assertFalse(p.cqB.isArmed(), "one request, one notification");
            List<WireTap.Seen> sends = p.wireFrom("a").stream().filter(s -> s.opcode().has(Opcode.SEND)).toList();
            assertEquals(6, sends.size());
            for (int i = 0; i < 6; i++) {
                assertEquals(i == 5, seBit(sends.get(i)), "SE only on the last packet of the solicited SEND: " + i);
            }

            p.qpA.postSend(SendWr.send(3, Sge.of(mrA)).solicited(true));
            assertTrue(p.runUntil(() -> p.cqB.size() == 3, 100 * MS));
            assertEquals(1, fired.get(), "not re-armed: no second notification");
        }
    }

    @Test
    void nextCompletionFiresOnASendCompletionAndIsNotNarrowedBySolicitedOnly() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 32)) {
            AtomicInteger fired = new AtomicInteger();
            p.cqA.onNotify(fired::incrementAndGet);
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[100], 0x9000, AccessFlags.ALL);
            p.cqA.requestNotify(false);
            p.cqA.requestNotify(true); // must not turn "next" into "solicited"
            p.qpA.postSend(SendWr.write(1, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 1, 100 * MS));
            assertEquals(1, fired.get(), "a successful send completion wakes a next-completion request");

            p.qpA.postSend(SendWr.write(2, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 100 * MS));
            assertEquals(1, fired.get());
        }
    }

    @Test
    void moderatedNextCompletionFiresOnceTheCqHoldsTheCountOrOnAnError() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 35)) {
            AtomicInteger fired = new AtomicInteger();
            p.cqA.onNotify(fired::incrementAndGet);
            p.cqA.moderate(3);
            assertEquals(3, p.cqA.moderationCount());
            MemoryRegion mrA = p.pdA.registerMr(new byte[100], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[100], 0x9000, AccessFlags.ALL);
            p.cqA.requestNotify(false);
            for (int i = 1; i <= 2; i++) {
                p.qpA.postSend(SendWr.write(i, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            }
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 100 * MS));
            assertEquals(0, fired.get(), "two completions do not reach a count of 3");
            assertEquals(1, p.cqA.poll().wrId()); // one polled: the CQ holds 1
            p.qpA.postSend(SendWr.write(3, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2, 100 * MS));
            assertEquals(0, fired.get(), "counted in the queue, not since the request: 2 held");
            p.qpA.postSend(SendWr.write(4, Sge.of(mrA), 0x9000, mrB.rkey()).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 3, 100 * MS));
            assertEquals(1, fired.get(), "the completion that makes 3 fires it");
            assertFalse(p.cqA.isArmed(), "one request, one notification");

            // an error completion fires a moderated request at once
            p.cqB.onNotify(fired::incrementAndGet);
            p.cqB.moderate(8);
            MemoryRegion mrB2 = p.pdB.registerMr(new byte[100], 0x20000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(9, Sge.of(mrB2)));
            p.runUntil(() -> false, MS);
            p.cqB.requestNotify(false);
            p.qpB.modify(new QpAttr().state(QpState.ERR));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 100 * MS));
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqB.poll().status());
            assertEquals(2, fired.get(), "an unsuccessful completion is not held back by the count");
        }
    }

    @Test
    void moderationCountMustFitTheCq() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 36)) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> p.cqA.moderate(0));
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> p.cqA.moderate(Integer.MAX_VALUE));
            assertEquals(1, p.cqA.moderationCount());
        }
    }

    @Test
    void solicitedOnlyFiresOnAnErrorCompletion() {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 33)) {
            AtomicInteger fired = new AtomicInteger();
            p.cqB.onNotify(fired::incrementAndGet);
            MemoryRegion mrB = p.pdB.registerMr(new byte[100], 0x9000, AccessFlags.LOCAL_WRITE);
            p.qpB.postRecv(new RecvWr(9, Sge.of(mrB)));
            p.runUntil(() -> false, MS);
            p.cqB.requestNotify(true);
            p.qpB.modify(new QpAttr().state(QpState.ERR));
            assertTrue(p.runUntil(() -> p.cqB.size() == 1, 100 * MS));
            assertEquals(WcStatus.WR_FLUSH_ERR, p.cqB.poll().status());
            assertEquals(1, fired.get(), "an unsuccessful completion wakes a solicited-only request");
        }
    }

    /** Index in the wire log of the first frame from {@code who} with opcode {@code op}. */
    private static int first(List<WireTap.Seen> wire, String who, Opcode op) {
        for (int i = 0; i < wire.size(); i++) {
            if (wire.get(i).from().equals(who) && wire.get(i).opcode() == op) {
                return i;
            }
        }
        return -1;
    }

    private static int last(List<WireTap.Seen> wire, String who, Opcode op) {
        for (int i = wire.size() - 1; i >= 0; i--) {
            if (wire.get(i).from().equals(who) && wire.get(i).opcode() == op) {
                return i;
            }
        }
        return -1;
    }

    private static List<WireTap.Seen> readThenSend(boolean fence) {
        try (NicRig p = NicRig.pair(QpType.RC, 1024, FaultProfile.NONE, 34)) {
            MemoryRegion mrA = p.pdA.registerMr(new byte[16384], 0x1000, AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = p.pdB.registerMr(new byte[16384], 0x90000, AccessFlags.ALL);
            p.qpB.postRecv(new RecvWr(1, Sge.of(mrB)));
            p.qpA.postSend(SendWr.read(1, Sge.of(mrA), 0x90000, mrB.rkey()).signaled(true),
                    SendWr.send(2, Sge.of(mrA, 0, 64)).fence(fence).signaled(true));
            assertTrue(p.runUntil(() -> p.cqA.size() == 2 && p.cqB.size() == 1, 100 * MS));
            NicRig.drain(p.cqA).forEach(wc -> assertEquals(WcStatus.SUCCESS, wc.status()));
            return List.copyOf(p.wire1);
        }
    }

    @Test
    void aFencedSendWaitsForTheEarlierReadToComplete() {
        List<WireTap.Seen> w = readThenSend(true);
        assertTrue(first(w, "a", Opcode.RC_SEND_ONLY) > last(w, "b", Opcode.RC_RDMA_READ_RESPONSE_LAST),
                "IBA 10.8.3: the fenced SEND leaves after the READ's last response: " + w);
    }

    @Test
    void anUnfencedSendFollowsTheReadRequestAtOnce() {
        List<WireTap.Seen> w = readThenSend(false);
        assertTrue(first(w, "a", Opcode.RC_SEND_ONLY) < first(w, "b", Opcode.RC_RDMA_READ_RESPONSE_FIRST),
                "without the fence the SEND does not wait: " + w);
    }
}
