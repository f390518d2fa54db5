package io.rocelab.topology.model;

import java.util.List;

/**
 * A topology that cannot work: one line per mistake, each naming the node, link or switch table
 * that is wrong, so that a user fixes everything in one pass.
 */
public final class TopologyException extends RuntimeException {
    private final List<String> problems;

    /** @param problems one line per mistake, at least one */
    public TopologyException(List<String> problems) {
        super(problems.size() == 1 ? problems.get(0)
            : problems.size() + " problems in the topology:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** @return every mistake, one line each */
    public List<String> problems() {
        return problems;
    }
}
