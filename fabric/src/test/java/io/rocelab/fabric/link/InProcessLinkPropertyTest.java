package io.rocelab.fabric.link;

import io.rocelab.fabric.testing.RecordingPort;
import io.rocelab.fabric.testing.TestFrames;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random traffic, faults and link flaps: every frame is accounted for, every buffer is released,
 * and the same seed replays the same run.
 */
class InProcessLinkPropertyTest {

    /** One action of a scenario. */
    sealed interface Op permits Send, Advance, Flap, Faults {
    }

    record Send(boolean fromA, int length) implements Op {
    }

    record Advance(int nanos) implements Op {
    }

    record Flap(boolean up) implements Op {
    }

    record Faults(boolean aToB, FaultProfile profile) implements Op {
    }

    @Provide
    Arbitrary<List<Op>> scenarios() {
        final Arbitrary<Op> send = Combinators.combine(Arbitraries.of(true, false),
            Arbitraries.integers().between(TestFrames.MIN_LENGTH, 2_000)).as(Send::new);
        final Arbitrary<Op> advance = Arbitraries.integers().between(0, 2_000).map(Advance::new);
        final Arbitrary<Op> flap = Arbitraries.of(true, false).map(Flap::new);
        final Arbitrary<Double> p = Arbitraries.of(0.0, 0.1, 0.5, 1.0);
        final Arbitrary<FaultProfile> profile = Combinators.combine(p, p, p, p,
                Arbitraries.longs().between(0, 5_000), Arbitraries.integers().between(0, 4))
            .as(FaultProfile::new);
        final Arbitrary<Op> faults = Combinators.combine(Arbitraries.of(true, false), profile).as(Faults::new);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, send), net.jqwik.api.Tuple.of(4, advance),
                net.jqwik.api.Tuple.of(1, flap), net.jqwik.api.Tuple.of(1, faults))
            .list().ofMaxSize(150);
    }

    @Property(tries = 200)
    void everyFrameIsAccountedForAndReleased(@ForAll("scenarios") List<Op> scenario,
                                             @ForAll long seed,
                                             @ForAll("rates") long rate) {
        final TestFrames frames = TestFrames.direct();
        final Run run = run(scenario, seed, rate, frames);

        for (LinkDirection d : List.of(run.link.aToB(), run.link.bToA())) {
            final var c = d.counters();
            assertEquals(0, d.framesInFlight(), "idle at the end");
            assertEquals(c.get(LinkCounter.FRAMES_SENT) + c.get(LinkCounter.DUPLICATED),
                c.get(LinkCounter.FRAMES_DELIVERED) + c.get(LinkCounter.DROPPED_LOSS)
                    + c.get(LinkCounter.DROPPED_LINK_DOWN) + c.get(LinkCounter.DROPPED_NO_RECEIVER),
                d + " seed " + seed);
        }
        final long sends = scenario.stream().filter(op -> op instanceof Send).count();
        assertEquals(sends, run.link.aToB().counters().get(LinkCounter.FRAMES_SENT)
            + run.link.bToA().counters().get(LinkCounter.FRAMES_SENT));
        assertEquals(run.link.aToB().counters().get(LinkCounter.FRAMES_DELIVERED), run.atB.count());
        assertEquals(run.link.bToA().counters().get(LinkCounter.FRAMES_DELIVERED), run.atA.count());
        assertEquals(0, frames.unreleased(), "unreleased buffers, seed " + seed);
    }

    @Property(tries = 50)
    void theSameSeedReplaysTheSameRun(@ForAll("scenarios") List<Op> scenario, @ForAll long seed,
                                      @ForAll("rates") long rate) {
        final Run first = run(scenario, seed, rate, TestFrames.direct());
        final Run second = run(scenario, seed, rate, TestFrames.direct());
        assertEquals(first.atB.deliveries().toString(), second.atB.deliveries().toString());
        assertEquals(first.atA.deliveries().toString(), second.atA.deliveries().toString());
        assertEquals(first.link.aToB().counters().snapshot(), second.link.aToB().counters().snapshot());
        assertEquals(first.link.bToA().counters().snapshot(), second.link.bToA().counters().snapshot());
    }

    @Provide
    Arbitrary<Long> rates() {
        return Arbitraries.of(0L, 1_000_000_000L, 100_000_000_000L);
    }

    private record Run(InProcessLink link, RecordingPort atA, RecordingPort atB) {
    }

    private static Run run(List<Op> scenario, long seed, long rate, TestFrames frames) {
        final VirtualTimeScheduler scheduler = new VirtualTimeScheduler();
        final InProcessLink link = InProcessLink.builder().seed(seed).rateBitsPerSecond(rate)
            .propagationDelayNanos(300).build(scheduler);
        final RecordingPort atA = new RecordingPort(scheduler, frames, false);
        final RecordingPort atB = new RecordingPort(scheduler, frames, false);
        link.portA().setReceiver(atA);
        link.portB().setReceiver(atB);
        final List<Integer> ids = new ArrayList<>();
        for (Op op : scenario) {
            if (op instanceof Send s) {
                final int id = ids.size();
                ids.add(id);
                (s.fromA() ? link.portA() : link.portB()).send(frames.frame(id, s.length()));
            } else if (op instanceof Advance a) {
                scheduler.runFor(a.nanos());
            } else if (op instanceof Flap f) {
                link.setUp(f.up());
            } else if (op instanceof Faults f) {
                (f.aToB() ? link.aToB() : link.bToA()).setFaults(f.profile());
            }
        }
        link.setUp(true);
        scheduler.runUntilIdle();
        return new Run(link, atA, atB);
    }
}
