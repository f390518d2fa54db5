package io.rocelab.lab.expect;

/** An expression that cannot be read or cannot be evaluated: one line saying why (and where, for syntax). */
public final class ExpressionException extends RuntimeException {
    public ExpressionException(String message) {
        super(message, null, false, false);
    }
}
