package io.rocelab.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.rocelab.codec.FrameKind;
import io.rocelab.codec.ParsedFrame;
import io.rocelab.codec.header.EtherType;
import io.rocelab.codec.header.MacAddress;
import io.rocelab.codec.header.Pfc;
import io.rocelab.fabric.pfc.PauseResponse;
import io.rocelab.sw.testkit.ConfigBuilder;
import io.rocelab.sw.testkit.HostStub;
import io.rocelab.sw.testkit.Lab;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pause frames the switch sends are 802.1Qbb frames; while congestion lasts they are refreshed
 * every half pause time at the port speed; received pause frames hold the egress for the quanta,
 * from the port's response time on.
 */
class PfcFrameTest {

    @ParameterizedTest(name = "{0} Gb/s")
    @ValueSource(ints = {25, 100, 400})
    void pauseBytesAndRefreshFollowPortSpeed(int gbps) {
        Lab lab = new Lab(Lab.routes(new ConfigBuilder(2, gbps), 2).build());
        long speed = gbps * 1_000_000_000L;
        HostStub sender = lab.flow(1, 0, 26, 2, 0xC001, 4096);
        HostStub receiver = lab.hosts.get(0);
        // the receiver pauses the switch for good: the switch's queue to it cannot drain, so the
        // switch must keep its sender paused by refreshing XOFF
        receiver.storm(3, Pfc.quantaToNanos(0xFFFF, speed) / 2);
        sender.start();
        lab.time.runFor(3_000_000);

        ByteBuf pfc = sender.firstPfc;
        ParsedFrame f = new ParsedFrame();
        assertNull(f.parse(pfc));
        assertEquals(FrameKind.PFC, f.kind());
        assertEquals(60, pfc.readableBytes(), "padded to the Ethernet minimum");
        assertEquals(MacAddress.PAUSE_MULTICAST, f.dstMac());
        assertEquals(EtherType.MAC_CONTROL, f.etherType());
        assertEquals(Pfc.OPCODE_PFC, Pfc.opcode(pfc, f.l3Offset()));
        assertEquals(1 << 3, Pfc.classEnableVector(pfc, f.l3Offset()));
        for (int p = 0; p < 8; p++) {
            assertEquals(p == 3 ? 0xFFFF : 0, Pfc.quanta(pfc, f.l3Offset(), p), "quanta of priority " + p);
        }

        long expected = Pfc.quantaToNanos(0xFFFF, speed) / 2;
        assertEquals(expected, lab.sw.pfc().refreshNanos(1));
        List<long[]> log = sender.pfcLog;
        assertTrue(log.size() >= 4, "XOFF refreshed while congestion lasts: " + log.size());
        for (int i = 2; i < log.size(); i++) {
            long interval = log.get(i)[0] - log.get(i - 1)[0];
            // one MTU of serialization at most between the decision and the wire
            assertTrue(Math.abs(interval - expected) <= 1 + 9200L * 8 * 1_000_000_000L / speed,
                "refresh interval " + interval + " ns, expected " + expected);
        }
        System.out.printf("%d Gb/s: XOFF 0xFFFF quanta = %d ns, refreshed every %d ns, %d pause frames%n", gbps,
            Pfc.quantaToNanos(0xFFFF, speed), expected, log.size());

        // storm over: the switch drains and resumes its sender with a zero-quanta XON
        receiver.stopStorm();
        lab.time.runFor(2_000_000);
        long[] last = log.get(log.size() - 1);
        assertEquals(0, last[1], "the last pause frame is an XON");
        assertTrue(sender.rxXon > 0);
        lab.drainAndClose();
    }

    @ParameterizedTest(name = "{0} quanta")
    @ValueSource(ints = {1000, 10000})
    void receivedPauseHoldsTheEgressForTheQuanta(int quanta) {
        Lab lab = new Lab(Lab.routes(new ConfigBuilder(2, 100), 2).build());
        HostStub sender = lab.flow(1, 0, 26, 2, 0xC001, 1024);
        HostStub receiver = lab.hosts.get(0);
        sender.start();
        lab.time.runFor(10_000);
        receiver.sendPause(3, quanta);
        lab.time.runFor(50);
        long before = receiver.rxFrames;
        long pause = Pfc.quantaToNanos(quanta, 100_000_000_000L);
        // the switch's port acts on the pause after IEEE 802.3 31B.3.7's 394 quanta at 100 Gb/s
        // (2,018 ns): the frames that start before then, and those already on the wire, still arrive;
        // then nothing until the pause (counted from its arrival) expires
        long response = PauseResponse.IEEE.nanosAt(100_000_000_000L);
        lab.time.runFor(response + 200);
        long inFlight = receiver.rxFrames;
        lab.time.runFor(pause - response - 400);
        assertEquals(inFlight, receiver.rxFrames, "the switch obeyed the pause for " + pause + " ns");
        lab.time.runFor(2000);
        assertTrue(receiver.rxFrames > inFlight + 5, "the switch resumed after the pause");
        // 1,098-byte frames (1,122 bytes on the wire) are 89.76 ns each: 22.5 start in the response
        // time, give or take the one on the wire when the pause came
        assertTrue(inFlight - before >= 21 && inFlight - before <= 25, "sent in the response time: "
            + (inFlight - before));
        assertTrue(lab.sw.counters(0).rxPfc[3] == 1);
        lab.drainAndClose();
    }
}
