package io.rocelab.lab.labfile;

import java.util.List;

/** A lab file with mistakes: every one of them, one line each with its place. */
public final class LabFileException extends Exception {
    private final List<String> problems;

    public LabFileException(List<String> problems) {
        super(String.join("\n", problems), null, false, false);
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
