package io.rocelab.sw.config;

import java.util.List;

/**
 * A switch configuration that cannot work. Carries one line per mistake, each naming the table,
 * the key and what is wrong, so that a user fixes everything in one pass instead of one error per run.
 */
public final class ConfigException extends RuntimeException {

    private final List<String> problems;

    /**
     * @param problems one human-readable line per mistake, at least one
     */
    public ConfigException(List<String> problems) {
        super(problems.size() == 1 ? problems.get(0)
            : problems.size() + " problems in the switch configuration:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * @return every mistake found, one line each
     */
    public List<String> problems() {
        return problems;
    }
}
