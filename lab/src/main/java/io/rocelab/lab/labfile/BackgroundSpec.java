package io.rocelab.lab.labfile;

import java.util.List;

/**
 * Poisson background load: one-message flows between random pairs of {@code hosts}.
 *
 * @param name      prefix of the generated flows' names
 * @param hosts     the hosts taking part (expanded)
 * @param load      fraction of each source's link rate
 * @param sizeBytes fixed message size, or 0 when {@code sizeCdf} gives them
 * @param sizeCdf   a CDF file as written, or null
 * @param verb      write, read, send or ud-send
 * @param startNanos first arrival no earlier than this
 * @param stopNanos  no arrival from this time on
 */
public record BackgroundSpec(String name, List<String> hosts, double load, long sizeBytes, String sizeCdf, String verb,
                             long startNanos, long stopNanos, Loc loc, String path) {
}
