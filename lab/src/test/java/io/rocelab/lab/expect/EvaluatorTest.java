package io.rocelab.lab.expect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.run.LabMetrics;
import io.rocelab.lab.run.RunData;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Checks over two variants' data: names, members, selectors, aggregates over time and over several. */
class EvaluatorTest {
    private static RunData run(String variant, double rateA, double rateB, long drops) {
        RunData d = new RunData(variant, 4_000_000, Set.of("flow-rate", "drops"), Map.of(
            Kind.FLOW, List.of("a", "b"), Kind.SWITCH, List.of("leaf0"), Kind.NIC, List.of("h0")));
        for (int i = 1; i <= 4; i++) {
            d.beginSample(i * 1_000_000L);
            d.sample(Kind.FLOW, "a", "rate", i == 1 ? 0 : rateA);
            d.sample(Kind.FLOW, "b", "rate", i == 1 ? 100e9 : rateB);
            d.sample(Kind.SWITCH, "leaf0", "drops", i < 3 ? 0 : drops);
        }
        d.total(Kind.SWITCH, "leaf0", "drops", drops);
        d.total(Kind.FLOW, "a", "errors", 0);
        d.total(Kind.FLOW, "b", "errors", 2);
        return d;
    }

    private final Evaluator ev = new Evaluator(new LabMetrics(List.of(run("fair", 50e9, 50e9, 0),
        run("unfair", 90e9, 10e9, 7))));

    @Test
    void variantsNamesAndCounters() {
        assertTrue(ev.holds("fair.switch.drops == 0"));
        assertTrue(ev.holds("unfair.switch.drops > 0 and unfair.switch.drops == 7"));
        assertFalse(ev.holds("unfair.switch.drops == 0"));
        assertTrue(ev.holds("unfair.switch(\"leaf0\").drops == 7"));
        assertEquals("7 > 0", ev.observed("unfair.switch.drops > 0"));
    }

    @Test
    void aggregatesOverTimeAndOverFlows() {
        // the first sample (1 ms) is the transient: from 2 ms on, fair is exactly fair
        assertTrue(ev.holds("jain(fair.flows.rate, from=2ms) >= 0.99"));
        assertFalse(ev.holds("jain(fair.flows.rate) >= 0.99"));
        assertTrue(ev.holds("jain(unfair.flows.rate, from=2ms) < 0.7"));
        assertTrue(ev.holds("mean(fair.flow(\"a\").rate, from=2ms) == 50Gbps"));
        assertTrue(ev.holds("max(unfair.flows(\"a\").rate) == 90G"));
        assertTrue(ev.holds("delta(unfair.switch.drops, from=2ms) == 7"));
        assertTrue(ev.holds("delta(unfair.switch.drops, to=2ms) == 0"));
        assertTrue(ev.holds("fair.flows.errors >= 0"));
        assertFalse(ev.holds("fair.flows.errors == 0"), "b has errors: a comparison of several holds for each");
        assertTrue(ev.holds("sum(fair.flows.errors) == 2 and count(fair.flows) == 2"));
        assertTrue(ev.holds("fair.duration == 4ms"));
    }

    @Test
    void mistakesSayWhatIsWrong() {
        assertEquals("this lab compares variants (fair, unfair): say which, e.g. fair.switch",
            assertThrows(ExpressionException.class, () -> ev.holds("switch.drops == 0")).getMessage());
        assertTrue(assertThrows(ExpressionException.class, () -> ev.holds("fair.switch.dropz == 0")).getMessage()
            .startsWith("a switch has no 'dropz' (it has: drops,"));
        assertEquals("fair.flows.rate is several values: take sum(...), mean(...), max(...), min(...) or jain(...) of "
            + "them, or compare them all", assertThrows(ExpressionException.class,
                () -> ev.holds("fair.flows.rate + 1 > 0")).getMessage());
        assertTrue(assertThrows(ExpressionException.class, () -> ev.holds("mean(fair.nic.paused) == 0")).getMessage()
            .contains("probe 'pause'"));
        assertTrue(assertThrows(ExpressionException.class, () -> ev.holds("fair.flow(\"c\").rate > 0")).getMessage()
            .startsWith("no flow 'c' (known: a, b)"));
        assertTrue(assertThrows(ExpressionException.class, () -> ev.holds("fair.switch.drops ==")).getMessage()
            .startsWith("column"));
    }
}
