package io.rocelab.lab.expect;

import io.rocelab.lab.labfile.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a check expression ({@code labs/README.md}, "Expectations"):
 *
 * <pre>
 * expr    := or
 * or      := and ('or' and)*
 * and     := not ('and' not)*
 * not     := 'not' not | compare
 * compare := sum (('==' | '!=' | '&lt;' | '&lt;=' | '&gt;' | '&gt;=') sum)?
 * sum     := product (('+' | '-') product)*
 * product := unary (('*' | '/') unary)*
 * unary   := '-' unary | postfix
 * postfix := primary ('.' NAME ('(' args ')')?)*
 * primary := NUMBER UNIT? | STRING | NAME ('(' args ')')? | '(' expr ')'
 * args    := (arg (',' arg)*)?     arg := NAME '=' expr | expr
 * </pre>
 *
 * Units of numbers: {@link Units}' table, the same as a lab file's fields take, in any case but
 * {@code S} and {@code Ms}: times to seconds, sizes to bytes, rates to bits per second ({@code Mb/s}
 * where the {@code s} ends the word; {@code K M G T} alone are SI multipliers: 100G is 1e11), %
 * a hundredth.
 */
public final class ExpressionParser {
    private final String text;
    private int pos;

    private ExpressionParser(String text) {
        this.text = text;
    }

    /**
     * @throws ExpressionException naming the column and what was expected
     */
    public static Expr parse(String text) {
        ExpressionParser p = new ExpressionParser(text);
        Expr e = p.or();
        p.skip();
        if (p.pos < text.length()) {
            throw p.error("unexpected '" + text.substring(p.pos, Math.min(text.length(), p.pos + 12)) + "'");
        }
        return e;
    }

    private ExpressionException error(String what) {
        return new ExpressionException("column " + (pos + 1) + ": " + what);
    }

    private void skip() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean eat(String op) {
        skip();
        if (text.startsWith(op, pos)) {
            if (Character.isLetter(op.charAt(0))) {
                int end = pos + op.length();
                if (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                    return false;
                }
            }
            pos += op.length();
            return true;
        }
        return false;
    }

    private void expect(String op) {
        if (!eat(op)) {
            throw error("expected '" + op + "'" + (pos < text.length() ? " at '" + text.charAt(pos) + "'" : " at the end"));
        }
    }

    private Expr or() {
        Expr e = and();
        while (eat("or")) {
            e = new Expr.Binary("or", e, and());
        }
        return e;
    }

    private Expr and() {
        Expr e = not();
        while (eat("and")) {
            e = new Expr.Binary("and", e, not());
        }
        return e;
    }

    private Expr not() {
        if (eat("not")) {
            return new Expr.Unary("not", not());
        }
        return compare();
    }

    private Expr compare() {
        Expr e = sum();
        for (String op : new String[] {"==", "!=", "<=", ">=", "<", ">"}) {
            if (eat(op)) {
                Expr r = sum();
                skip();
                for (String again : new String[] {"==", "!=", "<", ">"}) {
                    if (text.startsWith(again, pos)) {
                        throw error("comparisons do not chain: write a < b and b < c");
                    }
                }
                return new Expr.Binary(op, e, r);
            }
        }
        return e;
    }

    private Expr sum() {
        Expr e = product();
        while (true) {
            if (eat("+")) {
                e = new Expr.Binary("+", e, product());
            } else if (eat("-")) {
                e = new Expr.Binary("-", e, product());
            } else {
                return e;
            }
        }
    }

    private Expr product() {
        Expr e = unary();
        while (true) {
            if (eat("*")) {
                e = new Expr.Binary("*", e, unary());
            } else if (eat("/")) {
                e = new Expr.Binary("/", e, unary());
            } else {
                return e;
            }
        }
    }

    private Expr unary() {
        if (eat("-")) {
            return new Expr.Unary("-", unary());
        }
        return postfix();
    }

    private Expr postfix() {
        Expr e = primary();
        while (eat(".")) {
            String name = name();
            if (eat("(")) {
                e = call(e, name);
            } else {
                e = new Expr.Member(e, name);
            }
        }
        return e;
    }

    private Expr primary() {
        skip();
        if (pos >= text.length()) {
            throw error("expected a value at the end");
        }
        char c = text.charAt(pos);
        if (eat("(")) {
            Expr e = or();
            expect(")");
            return e;
        }
        if (Character.isDigit(c) || c == '.' && pos + 1 < text.length() && Character.isDigit(text.charAt(pos + 1))) {
            return number();
        }
        if (c == '"' || c == '\'') {
            int end = text.indexOf(c, pos + 1);
            if (end < 0) {
                throw error("a string without its closing " + c);
            }
            String s = text.substring(pos + 1, end);
            pos = end + 1;
            return new Expr.Text(s);
        }
        if (Character.isLetter(c) || c == '_') {
            String name = name();
            if (eat("(")) {
                return call(null, name);
            }
            return new Expr.Name(name);
        }
        throw error("unexpected '" + c + "'");
    }

    private String name() {
        skip();
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        if (start == pos) {
            throw error("expected a name");
        }
        return text.substring(start, pos);
    }

    private Expr call(Expr target, String name) {
        List<Expr> args = new ArrayList<>();
        Map<String, Expr> named = new LinkedHashMap<>();
        if (!eat(")")) {
            do {
                skip();
                int save = pos;
                if (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                    String key = name();
                    if (eat("=") && !text.startsWith("=", pos)) {
                        if (named.put(key, or()) != null) {
                            throw error("'" + key + "' given twice");
                        }
                        continue;
                    }
                    pos = save;
                }
                if (!named.isEmpty()) {
                    throw error("a positional argument after a named one");
                }
                args.add(or());
            } while (eat(","));
            expect(")");
        }
        return new Expr.Call(target, name, args, named);
    }

    /** @return whether a name (or a member, or a call) goes on at {@code at} */
    private boolean nameGoesOn(int at) {
        if (at >= text.length()) {
            return false;
        }
        char c = text.charAt(at);
        return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '(';
    }

    private Expr number() {
        int start = pos;
        while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
            pos++;
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E') && pos + 1 < text.length()
            && (Character.isDigit(text.charAt(pos + 1)) || text.charAt(pos + 1) == '-' || text.charAt(pos + 1) == '+')) {
            pos += 2;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
        }
        double v;
        try {
            v = Double.parseDouble(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("not a number: '" + text.substring(start, pos) + "'");
        }
        int unitStart = pos;
        while (pos < text.length() && (Character.isLetter(text.charAt(pos)) || text.charAt(pos) == '%')) {
            pos++;
        }
        String unit = text.substring(unitStart, pos);
        if (!unit.isEmpty() && text.regionMatches(true, pos, "/s", 0, 2) && !nameGoesOn(pos + 2)
            && Units.perSecond(unit)) {
            unit += text.substring(pos, pos + 2); // Mb/s: a unit, not a division by a name s
            pos += 2;
        }
        if (!unit.isEmpty()) {
            Double scale = Units.claim(unit);
            if (scale == null) {
                pos = unitStart;
                throw error("unknown unit '" + unit + "' (times ns us ms s, sizes B KB MB GB KiB MiB GiB, rates bps "
                    + "Mbps Gbps or K M G T, %)");
            }
            v *= scale;
        }
        return new Expr.Num(v, text.substring(start, pos));
    }
}
