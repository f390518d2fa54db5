package io.rocelab.perftest.run;

import io.rocelab.perftest.cli.PerftestOptions;

/** Makes the data path for a run; the seam through which the soft NIC is plugged in. */
@FunctionalInterface
public interface EngineFactory {
    TestEngine create(PerftestOptions options) throws Exception;

    /**
     * The factory used until the soft NIC's data path is wired in: it says so, in one line, instead
     * of failing somewhere inside a run.
     */
    static EngineFactory unavailable() {
        return options -> {
            throw new UnsupportedOperationException("the soft NIC's data path is not wired into perftest yet");
        };
    }
}
