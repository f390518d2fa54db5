package io.rocelab.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

/** Labs run as a user runs them, for the tests of the shipped labs. */
final class LabRuns {
    private LabRuns() {
    }

    /** {@code rocelab lab run LAB --out OUT} (a shipped name or a file): exit 0, each claim passed, none failed. */
    static CliRun runAllPass(Path out, String lab, String... claims) {
        CliRun run = CliRun.of("lab", "run", lab, "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        for (String claim : claims) {
            assertTrue(run.out().contains("PASS  " + claim), claim + " in\n" + run.out());
        }
        assertFalse(run.out().contains("FAIL"), run.out());
        return run;
    }
}
