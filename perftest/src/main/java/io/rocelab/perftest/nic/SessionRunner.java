package io.rocelab.perftest.nic;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.cli.OptionException;
import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.OobServer;
import io.rocelab.perftest.run.PerftestSession;
import io.rocelab.perftest.run.PerftestTool;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Runs one side of a tool when both sides live in this process (in-process mode, the demo's
 * hosts): a failure becomes perftest's one-line message and exit status, never an exception.
 */
final class SessionRunner {
    /** The out-of-band exchange's patience when both ends share this process. */
    static final Duration IO_TIMEOUT = Duration.ofSeconds(60);

    private SessionRunner() {
    }

    static int run(TestKind kind, PerftestOptions options, NicEngine engine, PrintStream out, PrintStream err,
                   OobServer listener) {
        try {
            PerftestSession s = new PerftestSession(options, engine, out, err, IO_TIMEOUT);
            if (listener != null) {
                s.listener(listener);
            }
            return s.run();
        } catch (OptionException e) {
            err.println(e.getMessage());
            return PerftestTool.FAILURE;
        } catch (Exception e) {
            err.println(" " + kind.toolName() + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return PerftestTool.FAILURE;
        }
    }

    /** Where the server side's output goes when only the client's tables are shown. */
    static PrintStream nullStream() {
        return new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    }
}
