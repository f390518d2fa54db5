package io.rocelab.lab.labfile;

/**
 * One claim of a scenario: a sentence for people and the check that decides it.
 *
 * @param claim the sentence (the check itself when the file gave none)
 * @param check the expression ({@code io.rocelab.lab.expect})
 * @param loc   where the check is written
 * @param path  {@code expect[2]}
 */
public record ExpectSpec(String claim, String check, Loc loc, String path) {
}
