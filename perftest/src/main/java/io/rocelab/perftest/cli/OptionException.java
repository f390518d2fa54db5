package io.rocelab.perftest.cli;

/**
 * A command line perftest would refuse. The message is the single line perftest prints (keeping
 * its leading space where perftest has one), so that a script that greps perftest's errors finds
 * the same text here.
 */
public final class OptionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OptionException(String message) {
        super(message, null, false, false);
    }
}
