package io.rocelab.topology.workload;

import java.util.List;

/** A flow that cannot run: one line per bad field, each naming the flow and the field. */
public final class InvalidFlowException extends IllegalArgumentException {
    private final List<String> problems;

    /** @param problems one line per mistake, at least one */
    public InvalidFlowException(List<String> problems) {
        super(problems.size() == 1 ? problems.get(0)
            : problems.size() + " problems:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** @return every mistake, one line each */
    public List<String> problems() {
        return problems;
    }
}
