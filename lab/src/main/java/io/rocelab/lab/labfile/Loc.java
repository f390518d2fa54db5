package io.rocelab.lab.labfile;

/**
 * Where something is in a lab file: the file's name as the user gave it, line and column (1-based;
 * 0 when unknown, as for a value a variant or a sweep made).
 */
public record Loc(String file, int line, int column) {
    /** A place with no line: the file as a whole. */
    public static Loc of(String file) {
        return new Loc(file, 0, 0);
    }

    @Override
    public String toString() {
        return line <= 0 ? file : file + ":" + line + ":" + column;
    }
}
