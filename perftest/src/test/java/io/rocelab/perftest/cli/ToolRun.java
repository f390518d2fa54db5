package io.rocelab.perftest.cli;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.run.EngineFactory;
import io.rocelab.perftest.run.PerftestTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A tool run in-process with its output captured; the data path must not be reached. */
record ToolRun(int exitStatus, String out, String err) {

    static ToolRun of(TestKind kind, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        EngineFactory mustNotRun = options -> {
            throw new AssertionError("the data path was reached with " + options);
        };
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = PerftestTool.run(kind, args, o, e, mustNotRun);
        }
        return new ToolRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
