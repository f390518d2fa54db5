package io.rocelab.lab.cli;

import org.junit.jupiter.api.Assumptions;

/**
 * What a test that needs something of the machine (root, namespaces, iperf3, the VMs) does when the
 * machine lacks it: off CI it skips with a loud line naming what was not checked; under {@code CI=true},
 * where {@code .ci/run} installed everything, it fails, so that a missing package cannot pass as a skip.
 */
public final class MachinePrerequisites {
    private MachinePrerequisites() {
    }

    /**
     * @param test what is not checked, for the line (e.g. {@code NetnsLabTest})
     * @param why  null when the machine can run it, else what it lacks
     */
    public static void require(String test, String why) {
        if (why == null) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI must run " + test + ", but " + why);
        }
        System.err.println("SKIPPED " + test + ": NOT checked: " + why);
        Assumptions.abort(why);
    }
}
