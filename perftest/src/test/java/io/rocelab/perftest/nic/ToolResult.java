package io.rocelab.perftest.nic;

import io.rocelab.perftest.TestKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A perftest tool run in this JVM as the command line runs it ({@link NicTool#run}), what it printed
 * kept.
 *
 * @param status its exit status
 * @param out    its standard output
 * @param err    its standard error
 */
record ToolResult(int status, String out, String err) {

    /** Runs tool {@code kind} with {@code args}. */
    static ToolResult of(TestKind kind, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = NicTool.run(kind, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ToolResult(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
