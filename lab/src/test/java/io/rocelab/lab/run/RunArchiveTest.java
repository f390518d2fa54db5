package io.rocelab.lab.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.expect.Kind;
import io.rocelab.topology.collective.Algorithm;
import io.rocelab.topology.collective.Collective;
import io.rocelab.topology.collective.CollectiveKind;
import io.rocelab.topology.collective.CollectiveResult;
import io.rocelab.topology.collective.IterationResult;
import io.rocelab.topology.workload.FlowResult;
import io.rocelab.topology.workload.Verb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run written by {@link RunArchive} reads back whole: every double's bits, NaN and the infinities included. */
class RunArchiveTest {
    @TempDir
    Path tmp;

    @Test
    void aRunReadsBackBitForBit() throws IOException {
        RunData d = new RunData("lossy", 300_000, Set.of("flow-rate"), Map.of(Kind.FLOW, List.of("f", "g"),
            Kind.PORT, List.of("leaf0:Ethernet0")));
        d.beginSample(10_000);
        d.sample(Kind.FLOW, "f", "rate", 0.1 + 0.2);
        d.beginSample(20_000);
        d.sample(Kind.FLOW, "f", "rate", Double.MIN_VALUE);
        d.sample(Kind.FLOW, "g", "rate", Double.POSITIVE_INFINITY); // first sampled now: NaN before
        d.total(Kind.FLOW, "f", "fct", Double.POSITIVE_INFINITY);
        d.total(Kind.FLOW, "g", "fct", Double.NaN);
        d.total(Kind.PORT, "leaf0:Ethernet0", "drops", 12345678901.0);
        Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("IBV_WC_RETRY_EXC_ERR", 3L);
        FlowResult f = new FlowResult("f", "h1", "h0", Verb.WRITE, FlowResult.Outcome.FAILED, 7, 65536, 65536, 0,
            -1, -1, Double.NaN, errors, 100, 200, 300, 400, 1, 2, 3, 4);
        FlowResult tcp = new FlowResult("t", "h2", "h0", null, FlowResult.Outcome.RUNNING, 0, 0, 0, 0, 0, -1, 1.5e9,
            Map.of(), -1, -1, -1, -1, 0);
        Collective c = new Collective("ar", CollectiveKind.ALL_REDUCE, Algorithm.RING, List.of("h0", "h1"), 1 << 20,
            2, 1, 1, 65536, 8, 0, -1);
        CollectiveResult cr = new CollectiveResult(c, List.of(new IterationResult(0, true, 0, 100, 1, 2, 1, 50,
            List.of(90L, 100L))), 0);
        LabRun run = new LabRun(d, List.of(f), List.of(tcp), List.of("t=1us: link down"), 4242, 987654321, null, 0,
            List.of("LLDP: a\nb"), List.of(cr));
        Path file = tmp.resolve("lab-run/lossy.seed-7.json.gz");
        RunArchive.write(file, run, 7, null);

        RunArchive.Archived a = RunArchive.read(file, name -> tmp.resolve(name));
        assertEquals(7, a.seed());
        assertNull(a.capture());
        LabRun back = a.run();
        RunData r = back.data();
        assertEquals("lossy", r.variant());
        assertEquals(300_000, r.durationNanos());
        assertEquals(d.probes(), r.probes());
        assertEquals(List.of("f", "g"), r.names(Kind.FLOW));
        assertArrayEquals(d.times(), r.times());
        assertArrayEquals(new double[] {0.1 + 0.2, Double.MIN_VALUE}, r.series(Kind.FLOW, "f", "rate").values());
        double[] g = r.series(Kind.FLOW, "g", "rate").values();
        assertTrue(Double.isNaN(g[0]) && g[1] == Double.POSITIVE_INFINITY, java.util.Arrays.toString(g));
        assertEquals(Double.POSITIVE_INFINITY, r.total(Kind.FLOW, "f", "fct"));
        assertTrue(Double.isNaN(r.total(Kind.FLOW, "g", "fct")));
        assertEquals(12345678901.0, r.total(Kind.PORT, "leaf0:Ethernet0", "drops"));
        assertTrue(Double.isNaN(back.flows().get(0).goodputBitsPerSecond()));
        assertEquals(f, back.flows().get(0)); // a record's equals compares doubles as Double.compare does: NaN too
        assertEquals(f.errorCompletions(), back.flows().get(0).errorCompletions());
        assertEquals(tcp, back.background().get(0));
        assertEquals(cr.collective(), back.collectives().get(0).collective());
        assertEquals(cr.iterations(), back.collectives().get(0).iterations());
        assertEquals(run.applied(), back.applied());
        assertEquals(run.notes(), back.notes());
        assertEquals(4242, back.events());
        assertEquals(987654321, back.wallNanos());

        assertTrue(RunArchive.sameRun(file, file));
        Path other = tmp.resolve("other.json.gz");
        RunArchive.write(other, new LabRun(d, List.of(f), List.of(tcp), List.of("t=1us: link down"), 4242, 1, null, 0,
            List.of("LLDP: a\nb"), List.of(cr)), 7, "seed-7/lossy-capture.pcapng");
        assertTrue(RunArchive.sameRun(file, other), "another wall time and capture place: the same run");
        RunArchive.write(other, new LabRun(d, List.of(f), List.of(tcp), List.of(), 4242, 1, null, 0,
            List.of("LLDP: a\nb"), List.of(cr)), 7, null);
        assertFalse(RunArchive.sameRun(file, other));

        Files.writeString(other, "{}");
        assertThrows(IOException.class, () -> RunArchive.read(other, name -> null));
    }
}
