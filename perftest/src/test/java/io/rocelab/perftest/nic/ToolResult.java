package io.rocelab.perftest.nic;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.pingpong.PingpongKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A tool run in this JVM as the command line runs it, what it printed kept: a perftest tool
 * ({@link NicTool#run}) or one of rdma-core's ping-pong tools ({@link PingpongTool#run}).
 *
 * @param status its exit status
 * @param out    its standard output
 * @param err    its standard error
 */
record ToolResult(int status, String out, String err) {

    /** Runs perftest tool {@code kind} with {@code args}. */
    static ToolResult of(TestKind kind, String... args) {
        return capture((out, err) -> NicTool.run(kind, args, out, err));
    }

    /** Runs ping-pong tool {@code kind} ({@code ibv_rc_pingpong}, ...) with {@code args}. */
    static ToolResult ofPingpong(PingpongKind kind, String... args) {
        return capture((out, err) -> PingpongTool.run(kind, args, out, err));
    }

    /** A tool's entry point: prints to {@code out} and {@code err}, returns its exit status. */
    private interface Tool {
        int run(PrintStream out, PrintStream err);
    }

    private static ToolResult capture(Tool tool) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = tool.run(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new ToolResult(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
