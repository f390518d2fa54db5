package io.rocelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A live run's progress line carries its detail (the hot spots), asked only when the line is drawn;
 * a line without a detail (virtual time) is as it always was.
 */
class ProgressLineTest {
    @Test
    void aDetailFollowsTheEtaOnlyWhereOneIsGiven() {
        StringWriter plain = new StringWriter();
        new ProgressLine(new PrintWriter(plain), true, "").at(1_000_000, 4_000_000);
        assertTrue(plain.toString().startsWith("\r  1ms of 4ms simulated, wall "), plain.toString());
        assertTrue(!plain.toString().contains("|"), plain.toString());

        StringWriter live = new StringWriter();
        AtomicInteger asked = new AtomicInteger();
        ProgressLine line = new ProgressLine(new PrintWriter(live), true, "")
            .withDetail(() -> "PFC leaf0:Ethernet0 p3 rx 12; deepest leaf0:Ethernet0 q3 80 KB#" + asked.incrementAndGet());
        line.at(1_000_000, 4_000_000);
        line.at(1_000_001, 4_000_000); // within 200 ms of the last draw: not drawn, not asked
        assertEquals(1, asked.get());
        assertTrue(live.toString().contains(" | PFC leaf0:Ethernet0 p3 rx 12; deepest leaf0:Ethernet0 q3 80 KB#1"),
            live.toString());

        StringWriter failing = new StringWriter();
        new ProgressLine(new PrintWriter(failing), true, "").withDetail(() -> {
            throw new IllegalStateException("the fabric's loop did not answer");
        }).at(1, 2);
        assertTrue(failing.toString().contains(" | (the fabric's loop did not answer)"), failing.toString());
    }
}
