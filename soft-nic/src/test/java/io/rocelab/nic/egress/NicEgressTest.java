package io.rocelab.nic.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The NIC's egress, as the transmit path of IEEE 802.1Qbb and ns-3's RdmaEgressQueue describe it:
 * MAC control first, then control frames by priority, then the QPs round robin; PFC stops exactly
 * the paused priority for the pause time; a paced QP waits for its send time; a QP with nothing to
 * send is in no list. 10 Gb/s, 1000-byte frames: one frame per 819.2 ns on the wire.
 */
class NicEgressTest {
    private static final long RATE = 10_000_000_000L;
    /** (1000 + 24) bytes x 8 / 10 Gb/s. */
    private static final long FRAME_NANOS = 820;

    private final VirtualTimeScheduler time = new VirtualTimeScheduler();
    private final CounterSet<NicCounter> counters = new CounterSet<>(NicCounter.class);
    /** These tests are about what a pause holds and for how long: the NIC acts on it at once. */
    private final NicEgress egress = new NicEgress(counters, RATE, PauseResponse.INSTANT);
    private final Wire wire = new Wire();
    private final Transmitter tx = new Transmitter(time, wire, RATE, egress);

    NicEgressTest() {
        egress.attach(tx);
    }

    /** Records the tag (first byte) and start time of every frame the transmitter sends. */
    private final class Wire extends AbstractFramePort {
        final List<String> sent = new ArrayList<>();
        final List<Long> at = new ArrayList<>();

        Wire() {
            super("wire", true);
        }

        @Override
        public void send(ByteBuf frame) {
            sent.add(Character.toString((char) frame.getByte(0)));
            at.add(time.nanoTime());
            frame.release();
        }
    }

    private static ByteBuf frame(char tag) {
        ByteBuf b = Unpooled.buffer(1000);
        b.writeByte(tag);
        b.writeZero(999);
        return b;
    }

    /** A QP with {@code packets} frames tagged {@code tag} at priority {@code prio}. */
    private final class Qp extends EgressFlow {
        final char tag;
        final int prio;
        int packets;
        long sendAt = Long.MIN_VALUE;
        long gap;
        int asked;

        Qp(char tag, int prio, int packets) {
            this.tag = tag;
            this.prio = prio;
            this.packets = packets;
        }

        @Override
        protected int priority() {
            return prio;
        }

        @Override
        protected SendStep nextPacket(long now) {
            asked++;
            if (packets == 0) {
                return SendStep.NOTHING;
            }
            packets--;
            if (gap > 0) {
                sendAt = now + gap;
            }
            return new SendStep.Frame(frame(tag));
        }

        @Override
        protected long nextSendAtNanos() {
            return sendAt;
        }
    }

    /**
     * A QP whose packets the port takes in place (UDP endpoint mode): each goes into {@code log}
     * when it is written, and no frame goes to the transmitter.
     */
    private static final class InPlaceQp extends EgressFlow {
        final String tag;
        final List<String> log;
        int packets;

        InPlaceQp(String tag, int packets, List<String> log) {
            this.tag = tag;
            this.packets = packets;
            this.log = log;
        }

        @Override
        protected int priority() {
            return 3;
        }

        @Override
        protected SendStep nextPacket(long now) {
            if (packets == 0) {
                return SendStep.NOTHING;
            }
            packets--;
            log.add(tag);
            return SendStep.WRITTEN_IN_PLACE;
        }

        @Override
        protected long nextSendAtNanos() {
            return Long.MIN_VALUE;
        }
    }

    private static ByteBuf pfc(int prio, int quanta) {
        ByteBuf b = Unpooled.buffer(Pfc.LENGTH);
        int[] q = new int[8];
        q[prio] = quanta;
        b.writeZero(Pfc.LENGTH);
        Pfc.write(b, 0, 1 << prio, q);
        return b;
    }

    @Test
    void macControlThenControlByPriorityThenTheQps() {
        Qp qp = new Qp('d', 3, 1);
        egress.wake(qp); // the first frame starts at once; the rest wait for the wire
        egress.sendControl(frame('a'), 0);
        egress.sendControl(frame('c'), 6);
        egress.sendMacControl(frame('p'));
        time.runUntilIdle();
        assertEquals(List.of("d", "p", "c", "a"), wire.sent);
    }

    @Test
    void qpsWithWorkShareTheWireRoundRobin() {
        Qp a = new Qp('a', 3, 3);
        Qp b = new Qp('b', 3, 3);
        Qp c = new Qp('c', 3, 1);
        egress.wake(a); // the wire is idle: a's first frame starts at once, and a goes to the tail
        egress.wake(b);
        egress.wake(c);
        time.runUntilIdle();
        // then the ring is a, b, c: one frame each per turn; c leaves after its one, a after three
        assertEquals(List.of("a", "a", "b", "c", "a", "b", "b"), wire.sent);
    }

    @Test
    void aPauseStopsOnlyThePausedPriorityForThePauseTime() {
        // 1000 quanta of 512 bit times at 10 Gb/s: 51,200 ns
        egress.onPfc(pfc(3, 1000), 0, 0);
        assertTrue(egress.isPaused(3, 0));
        Qp lossless = new Qp('3', 3, 2);
        Qp other = new Qp('0', 0, 2);
        egress.wake(lossless);
        egress.wake(other);
        egress.sendControl(frame('A'), 3); // an ACK on the paused priority waits too
        egress.sendControl(frame('r'), 0);
        time.runUntilIdle();
        assertEquals(List.of("0", "r", "0", "A", "3", "3"), wire.sent);
        assertEquals(51_200L, wire.at.get(3), "the paused priority goes when the pause time has run out");
        assertEquals(1, counters.get(NicCounter.RX_PRIO3_PAUSE));
        assertEquals(51, counters.get(NicCounter.RX_PRIO3_PAUSE_DURATION), "microseconds paused");
        assertEquals(0, counters.get(NicCounter.RX_PRIO0_PAUSE));
    }

    @Test
    void aZeroTimeResumesAtOnce() {
        egress.onPfc(pfc(3, 0xFFFF), 0, 0);
        Qp lossless = new Qp('3', 3, 1);
        egress.wake(lossless);
        time.runFor(10_000);
        assertTrue(wire.sent.isEmpty(), "paused");
        egress.onPfc(pfc(3, 0), 0, time.nanoTime());
        time.runUntilIdle();
        assertEquals(List.of("3"), wire.sent);
        assertEquals(List.of(10_000L), wire.at);
        assertEquals(1, counters.get(NicCounter.RX_PRIO3_PAUSE_TRANSITION));
        assertEquals(2, counters.get(NicCounter.RX_PRIO3_PAUSE), "the XOFF and the XON, frames as the sender counts them");
        assertEquals(10, counters.get(NicCounter.RX_PRIO3_PAUSE_DURATION), "only the time it really was paused");
    }

    @Test
    void aPacedQpWaitsForItsSendTimeWithoutBeingAskedMeanwhile() {
        Qp paced = new Qp('p', 3, 3);
        paced.gap = 10_000;
        Qp fast = new Qp('f', 3, 2);
        egress.wake(paced);
        egress.wake(fast);
        time.runUntilIdle();
        assertEquals(List.of("p", "f", "f", "p", "p"), wire.sent);
        assertEquals(List.of(0L, FRAME_NANOS, 2 * FRAME_NANOS - 1, 10_000L, 20_000L), wire.at);
        assertEquals(4, paced.asked, "asked once per packet and once more when it had none: never polled");
    }

    @Test
    void aQpWithNothingToSendIsAskedOnceAndThenForgottenUntilWoken() {
        Qp qp = new Qp('q', 3, 0);
        egress.wake(qp);
        time.runUntilIdle();
        assertEquals(1, qp.asked);
        long events = time.eventsExecuted();
        time.runFor(1_000_000);
        assertEquals(events, time.eventsExecuted(), "no timer while nothing can be sent");
        qp.packets = 1;
        egress.wake(qp);
        time.runUntilIdle();
        assertEquals(List.of("q"), wire.sent);
    }

    @Test
    void packetsWrittenInPlaceTakeTheirTurnInTheRoundRobinWithoutAFrame() {
        Qp frames = new Qp('f', 3, 3);
        InPlaceQp inPlace = new InPlaceQp("i", 3, wire.sent);
        egress.wake(frames); // its first frame starts at once
        egress.wake(inPlace);
        time.runUntilIdle();
        // each wire slot: f's frame, then the ring goes on; a packet written in place needs no slot,
        // so the pull goes on to the next QP's at once
        assertEquals(List.of("f", "f", "i", "f", "i", "i"), wire.sent);
        assertEquals(3, tx.framesSent(), "only frames reach the transmitter");
    }

    @Test
    void aPullWritesAtMostOnePumpsWorthInPlaceThenLetsTheThreadGo() {
        // no transmitter: pulled by hand
        NicEgress e = new NicEgress(counters, RATE, PauseResponse.INSTANT);
        List<String> written = new ArrayList<>();
        e.wake(new InPlaceQp("a", 100, written));
        e.wake(new InPlaceQp("b", 100, written));
        assertNull(e.pull(0), "no frame for the transmitter");
        assertEquals(Transmitter.MAX_FRAMES_PER_PUMP, written.size());
        assertEquals(List.of("a", "b", "a", "b"), written.subList(0, 4), "round robin");
        assertTrue(e.hasWork());
        assertEquals(0, e.nextReadyNanos(0), "the transmitter comes back at once");
        assertNull(e.pull(0));
        assertEquals(2 * Transmitter.MAX_FRAMES_PER_PUMP, written.size());
        assertNull(e.pull(0));
        assertNull(e.pull(0));
        assertEquals(200, written.size());
        assertFalse(e.hasWork(), "both drained: the flows went idle");
    }
}
