package io.rocelab.topology.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A flow's builder: perftest-like defaults, and one line per bad field. */
class FlowTest {
    @Test
    void defaultsAreThoseOfPerftest() {
        Flow f = Flow.builder("f", "h0", "h1").build();
        assertEquals(Verb.WRITE, f.verb());
        assertEquals(65_536, f.size().maxBytes());
        assertEquals(1, f.qps());
        assertEquals(8, f.window());
        assertEquals(0, f.startNanos());
        assertEquals(Long.MAX_VALUE, f.stopNanos());
        assertEquals(-1, f.dscp());
        assertEquals(14, f.ackTimeout());
        assertEquals(7, f.retryCount());
        assertEquals(7, f.rnrRetry());
        assertFalse(f.bounded(), "no count, duration or stop: it runs until the end");
        assertTrue(Flow.builder("g", "h0", "h1").messages(3).build().bounded());
        assertTrue(Flow.builder("g", "h0", "h1").stopNanos(5).build().bounded());
    }

    @Test
    void everyBadFieldHasItsOwnLine() {
        InvalidFlowException e = assertThrows(InvalidFlowException.class, () -> Flow.builder("bad", "h0", "h0")
            .messageBytes(0).messages(-1).durationNanos(-2).qps(0).window(2000).startNanos(-3).rateBitsPerSecond(-4)
            .dscp(64).ackTimeout(32).retryCount(8).rnrRetry(-1).build());
        assertEquals(List.of(
            "flow 'bad': message size must be >= 1 byte, not 0",
            "flow 'bad': source and destination are the same host 'h0'",
            "flow 'bad': messages must be >= 0 (0: no bound), not -1",
            "flow 'bad': duration must be >= 0 ns (0: no bound), not -2",
            "flow 'bad': qps must be 1..1024, not 0",
            "flow 'bad': window must be 1..1024 work requests per QP, not 2000",
            "flow 'bad': start must be >= 0 ns, not -3",
            "flow 'bad': rate must be >= 0 b/s (0: no cap), not -4",
            "flow 'bad': dscp must be 0..63, or -1 for the fabric's RoCE DSCP, not 64",
            "flow 'bad': ack timeout must be 0..31 (IBA exponent), not 32",
            "flow 'bad': retry count must be 0..7, not 8",
            "flow 'bad': rnr retry must be 0..7 (7: forever), not -1"), e.problems());
        assertTrue(e.getMessage().startsWith("12 problems:\n  flow 'bad': message size"), e.getMessage());
    }

    @Test
    void udSendHasOneQpAndNoRateCap() {
        InvalidFlowException e = assertThrows(InvalidFlowException.class, () -> Flow.builder("u", "h0", "h1")
            .verb(Verb.UD_SEND).qps(2).rateGbps(10).build());
        assertEquals(List.of("flow 'u': qps must be 1 for UD_SEND (one UD QP each side), not 2",
            "flow 'u': rate caps RC QPs (QueuePair.setRateLimit paces RC and UC QPs): not for UD_SEND"), e.problems());
    }

    @Test
    void aStopMustComeAfterTheStart() {
        InvalidFlowException e = assertThrows(InvalidFlowException.class,
            () -> Flow.builder("s", "h0", "h1").startNanos(1000).stopNanos(1000).build());
        assertEquals("flow 's': stop must be after the start (1000 ns), not 1000", e.getMessage());
    }

    @Test
    void verbsParseTheirNames() {
        assertEquals(Verb.UD_SEND, Verb.parse("ud-send"));
        assertEquals(Verb.READ, Verb.parse(" Read "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Verb.parse("atomic"));
        assertEquals("verb must be write, read, send or ud_send, not 'atomic'", e.getMessage());
    }
}
