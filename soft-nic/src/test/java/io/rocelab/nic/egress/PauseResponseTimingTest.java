package io.rocelab.nic.egress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.fabric.port.AbstractFramePort;
import io.rocelab.fabric.stats.CounterSet;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import io.rocelab.fabric.tx.Transmitter;
import io.rocelab.fabric.wire.EthernetFraming;
import io.rocelab.nic.stats.NicCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How long a NIC sending back to back at 100 Gb/s goes on after a PFC XOFF arrives: by default
 * IEEE 802.3 31B.3.7's 394 quanta (2,018 ns), about 25 KB of frames that a switch's headroom must
 * hold beside the cable's; with a response of 0 only the frame on the wire finishes. Frames of
 * 4,150 bytes (a 4096-byte RoCE payload with its headers), 333.92 ns each on the wire.
 */
class PauseResponseTimingTest {
    private static final long RATE = 100_000_000_000L;
    private static final int FRAME = 4_150;
    private static final double FRAME_NANOS =
        EthernetFraming.wireBytes(FRAME, EthernetFraming.MIN_FRAME_BYTES, EthernetFraming.DEFAULT_OVERHEAD_BYTES)
            * 8 * 1e9 / RATE;
    /** The XOFF arrives in the middle of a frame. */
    private static final long XOFF_AT = 10_100;
    /** 394 quanta at 100 Gb/s, rounded up. */
    private static final long RESPONSE = 2_018;

    private final VirtualTimeScheduler time = new VirtualTimeScheduler();
    private final CounterSet<NicCounter> counters = new CounterSet<>(NicCounter.class);
    private final List<Long> starts = new ArrayList<>();
    private NicEgress egress;

    /** Starts an endless sender at priority 3 on a NIC with {@code response}. */
    private void sendBackToBack(PauseResponse response) {
        egress = new NicEgress(counters, RATE, response);
        Transmitter tx = new Transmitter(time, new AbstractFramePort("wire", true) {
            @Override
            public void send(ByteBuf frame) {
                starts.add(time.nanoTime());
                frame.release();
            }
        }, RATE, egress);
        egress.attach(tx);
        egress.wake(new EgressFlow() {
            @Override
            protected int priority() {
                return 3;
            }

            @Override
            protected SendStep nextPacket(long now) {
                return new SendStep.Frame(Unpooled.buffer(FRAME).writeZero(FRAME));
            }

            @Override
            protected long nextSendAtNanos() {
                return Long.MIN_VALUE;
            }
        });
    }

    private void receive(int quanta, long at) {
        time.runUntil(at);
        ByteBuf b = Unpooled.buffer(Pfc.LENGTH).writeZero(Pfc.LENGTH);
        int[] q = new int[8];
        q[3] = quanta;
        Pfc.write(b, 0, 1 << 3, q);
        egress.onPfc(b, 0, at);
    }

    private long startedIn(long from, long to) {
        return starts.stream().filter(t -> t >= from && t < to).count();
    }

    @Test
    void byDefaultItSendsFor394QuantaAfterTheXoffArrived() {
        sendBackToBack(PauseResponse.IEEE);
        assertEquals(RESPONSE, egress.pauseResponseNanos());
        receive(0xFFFF, XOFF_AT);
        time.runFor(100_000);
        long after = startedIn(XOFF_AT, Long.MAX_VALUE);
        assertEquals(after, startedIn(XOFF_AT, XOFF_AT + RESPONSE), "nothing starts once the response time is over");
        // the frame on the wire when the XOFF came, plus the frames that start within 2,018 ns
        long bytesAfter = (after + 1) * FRAME;
        long responseBytes = RESPONSE * RATE / 8 / 1_000_000_000L; // 25,225
        assertTrue(bytesAfter >= responseBytes && bytesAfter <= responseBytes + 2 * FRAME,
            "about 25 KB after the XOFF: " + bytesAfter);
        long last = starts.get(starts.size() - 1);
        assertTrue(last + FRAME_NANOS >= XOFF_AT + RESPONSE, "every start in the response time went: the last at "
            + (last - XOFF_AT) + " ns");
        assertTrue(egress.isPaused(3, XOFF_AT + RESPONSE));
        assertFalse(egress.isPaused(3, XOFF_AT + RESPONSE - 1));
    }

    @Test
    void withAResponseOfZeroOnlyTheFrameOnTheWireFinishes() {
        sendBackToBack(PauseResponse.INSTANT);
        receive(0xFFFF, XOFF_AT);
        time.runFor(100_000);
        assertEquals(0, startedIn(XOFF_AT, Long.MAX_VALUE));
        long last = starts.get(starts.size() - 1);
        assertTrue(last < XOFF_AT && last + FRAME_NANOS > XOFF_AT, "the frame on the wire was started before");
    }

    @Test
    void anXonResumesAtOnceAndTheCountersCountOnlyTheTimePaused() {
        sendBackToBack(PauseResponse.IEEE);
        receive(0xFFFF, XOFF_AT);
        long xonAt = XOFF_AT + 52_000;
        receive(0, xonAt);
        time.runFor(1_000);
        assertTrue(starts.contains(xonAt), "the first frame starts at the XON");
        assertEquals(0, startedIn(XOFF_AT + RESPONSE, xonAt));
        assertEquals(2, counters.get(NicCounter.RX_PRIO3_PAUSE));
        assertEquals(1, counters.get(NicCounter.RX_PRIO3_PAUSE_TRANSITION));
        assertEquals(49, counters.get(NicCounter.RX_PRIO3_PAUSE_DURATION),
            "52 us after the XOFF less the 2 us response: 49.98 us, counted in whole microseconds");
    }

    @Test
    void aRefreshWhilePausedExtendsItWithoutANewResponseTime() {
        sendBackToBack(PauseResponse.IEEE);
        receive(1000, XOFF_AT); // 5,120 ns at 100 Gb/s
        receive(1000, XOFF_AT + 4_000);
        time.runFor(50_000);
        assertEquals(0, startedIn(XOFF_AT + RESPONSE, XOFF_AT + 9_120), "held from the first response on");
        assertEquals(1, startedIn(XOFF_AT + 9_120, XOFF_AT + 9_121), "resumed when the refreshed timer ran out");
        assertEquals(7, counters.get(NicCounter.RX_PRIO3_PAUSE_DURATION), "9,120 - 2,018 ns: 7.1 us");
    }

    @Test
    void aGivenResponseTimeOverridesTheSpeedsBound() {
        sendBackToBack(PauseResponse.parse("5us"));
        receive(0xFFFF, XOFF_AT);
        time.runFor(100_000);
        assertEquals(startedIn(XOFF_AT, Long.MAX_VALUE), startedIn(XOFF_AT, XOFF_AT + 5_000));
        assertTrue(starts.get(starts.size() - 1) + FRAME_NANOS >= XOFF_AT + 5_000, "every start in the 5 us went");
    }

    @Test
    void nothingSpinsWhileHeld() {
        sendBackToBack(PauseResponse.IEEE);
        receive(0xFFFF, XOFF_AT);
        time.runFor(10_000);
        long events = time.eventsExecuted();
        time.runFor(200_000); // the pause (65535 quanta, 335 us) is not over
        assertEquals(events, time.eventsExecuted(), "no timer runs while the priority is held");
        time.runFor(200_000);
        long resume = XOFF_AT + Pfc.quantaToNanos(0xFFFF, RATE);
        assertEquals(resume, starts.stream().filter(t -> t > XOFF_AT + RESPONSE).findFirst().orElseThrow(),
            "woken when the pause ran out, not before");
    }
}
