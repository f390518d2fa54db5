package io.rocelab.lab.cli;

/** A mistake by the user (bad file, bad value): reported as one line and exit code 2. */
public final class UserError extends RuntimeException {
    public UserError(String message) {
        super(message, null, false, false);
    }
}
