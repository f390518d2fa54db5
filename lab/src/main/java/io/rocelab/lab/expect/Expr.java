package io.rocelab.lab.expect;

import java.util.List;
import java.util.Map;

/** The syntax tree of an expectation's check. */
public sealed interface Expr {
    /** A number, units already applied (seconds, bytes, bits per second, fractions). */
    record Num(double value, String text) implements Expr {
    }

    /** A quoted string: a name or a glob. */
    record Text(String value) implements Expr {
    }

    /** A bare name: a variant, a collection ({@code flows}), a fabric aggregate ({@code switch}), {@code duration}. */
    record Name(String name) implements Expr {
    }

    /** {@code target.name}. */
    record Member(Expr target, String name) implements Expr {
    }

    /** {@code name(args, key=value)}, or {@code target.name(...)} with a variant as target. */
    record Call(Expr target, String name, List<Expr> args, Map<String, Expr> named) implements Expr {
    }

    /** {@code -x}, {@code not x}. */
    record Unary(String op, Expr operand) implements Expr {
    }

    /** Arithmetic, comparison, {@code and}, {@code or}. */
    record Binary(String op, Expr left, Expr right) implements Expr {
    }
}
