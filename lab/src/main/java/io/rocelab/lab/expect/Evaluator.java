package io.rocelab.lab.expect;

import io.rocelab.lab.labfile.HostPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleBinaryOperator;

/**
 * Evaluates a check ({@code labs/README.md}, "Expectations") against a lab's {@link Metrics}.
 *
 * <ul>
 *   <li>Names: a variant ({@code lossy.}), a collection ({@code flows ports queues nics switches}), a
 *       fabric-wide sum ({@code switch nic}), {@code duration}.</li>
 *   <li>Selectors: {@code flow("a")}, {@code flows("incast-*")}, and so for each kind.</li>
 *   <li>Aggregates over time ({@code from=}, {@code to=}, seconds with units): {@code mean max min last}
 *       of a gauge, {@code delta} of a counter; over several: {@code sum count jain}, and {@code mean max
 *       min} of their values.</li>
 *   <li>A comparison of several values with one holds when it holds for each.</li>
 * </ul>
 */
public final class Evaluator {
    private static final List<String> FUNCTIONS = List.of("mean", "max", "min", "last", "delta", "sum", "count",
        "jain", "abs", "first");
    private final Metrics metrics;
    /** Every operand of {@code and}/{@code or} is evaluated, as {@code lab check} needs (see {@link #checking}). */
    private final boolean everyOperand;

    public Evaluator(Metrics metrics) {
        this(metrics, false);
    }

    private Evaluator(Metrics metrics, boolean everyOperand) {
        this.metrics = metrics;
        this.everyOperand = everyOperand;
    }

    /**
     * An evaluator for checking a lab file before it runs ({@code lab check}): against planned, empty
     * runs {@code a > 0 and b} is false at {@code a}, so a mistake in {@code b} (an unknown name, a
     * selector without the variant a lab of several needs) would wait for the run to be found; this one
     * evaluates both sides of every {@code and} and {@code or}.
     */
    public static Evaluator checking(Metrics metrics) {
        return new Evaluator(metrics, true);
    }

    /**
     * @return whether the check holds
     * @throws ExpressionException if it cannot be read or evaluated, or is not a truth value
     */
    public boolean holds(String check) {
        Value v = eval(ExpressionParser.parse(check));
        if (v instanceof Value.Bool b) {
            return b.value();
        }
        throw new ExpressionException("a check is a comparison (e.g. switch.drops == 0), this is " + describe(v));
    }

    /** @return the numbers the top-level comparison of {@code check} compared, for a report ("1.2e6 > 0") */
    public String observed(String check) {
        return observed(ExpressionParser.parse(check));
    }

    private String observed(Expr e) {
        if (e instanceof Expr.Binary b && (b.op().equals("and") || b.op().equals("or"))) {
            return observed(b.left()) + "; " + observed(b.right());
        }
        if (e instanceof Expr.Binary b && isComparison(b.op())) {
            return show(eval(b.left())) + " " + b.op() + " " + show(eval(b.right()));
        }
        return show(eval(e));
    }

    private static String show(Value v) {
        if (v instanceof Value.Many m) {
            List<String> items = new ArrayList<>();
            for (Value i : m.items()) {
                items.add(show(i));
            }
            return "[" + String.join(", ", items.size() > 8 ? items.subList(0, 8) : items)
                + (items.size() > 8 ? ", ..." : "") + "]";
        }
        if (v instanceof Value.Num || v instanceof Value.Counter) {
            return format(number(v));
        }
        return describe(v);
    }

    static String format(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.4g", d);
    }

    private static boolean isComparison(String op) {
        return List.of("==", "!=", "<", "<=", ">", ">=").contains(op);
    }

    Value eval(Expr e) {
        if (e instanceof Expr.Num n) {
            return new Value.Num(n.value());
        }
        if (e instanceof Expr.Text t) {
            return new Value.Text(t.value());
        }
        if (e instanceof Expr.Name n) {
            if (!n.name().isEmpty() && metrics.variants().contains(n.name())) {
                return new Value.Scope(n.name());
            }
            if (n.name().equals("duration")) {
                double d = metrics.durationSeconds(metrics.variants().get(0));
                if (metrics.variants().stream().allMatch(v -> metrics.durationSeconds(v) == d)) {
                    return new Value.Num(d);
                }
            }
            return resolve(defaultVariant(n.name()), n.name());
        }
        if (e instanceof Expr.Member m) {
            return member(eval(m.target()), m.name());
        }
        if (e instanceof Expr.Call c) {
            return call(c);
        }
        if (e instanceof Expr.Unary u) {
            Value v = eval(u.operand());
            if (u.op().equals("not")) {
                return new Value.Bool(!truth(v));
            }
            return new Value.Num(-number(v));
        }
        Expr.Binary b = (Expr.Binary) e;
        return switch (b.op()) {
            case "and" -> everyOperand ? new Value.Bool(truth(eval(b.left())) & truth(eval(b.right())))
                : new Value.Bool(truth(eval(b.left())) && truth(eval(b.right())));
            case "or" -> everyOperand ? new Value.Bool(truth(eval(b.left())) | truth(eval(b.right())))
                : new Value.Bool(truth(eval(b.left())) || truth(eval(b.right())));
            case "+" -> arithmetic(b, Double::sum);
            case "-" -> arithmetic(b, (x, y) -> x - y);
            case "*" -> arithmetic(b, (x, y) -> x * y);
            case "/" -> arithmetic(b, (x, y) -> x / y);
            default -> compare(b.op(), eval(b.left()), eval(b.right()));
        };
    }

    private Value arithmetic(Expr.Binary b, DoubleBinaryOperator op) {
        return new Value.Num(op.applyAsDouble(number(eval(b.left())), number(eval(b.right()))));
    }

    private String defaultVariant(String name) {
        List<String> variants = metrics.variants();
        if (variants.size() == 1) {
            return variants.get(0);
        }
        throw new ExpressionException("this lab compares variants (" + String.join(", ", variants) + "): say which, e.g. "
            + variants.get(0) + "." + name);
    }

    private Value resolve(String variant, String name) {
        if (name.equals("duration")) {
            return new Value.Num(metrics.durationSeconds(variant));
        }
        for (Kind k : Kind.values()) {
            if (k.many().equals(name)) {
                return new Value.Entities(variant, k, metrics.names(variant, k),
                    variant.isEmpty() ? name : variant + "." + name);
            }
            if (k.one().equals(name) && (k == Kind.NIC || k == Kind.SWITCH)) {
                return new Value.Entity(variant, k, null);
            }
        }
        List<String> known = new ArrayList<>();
        metrics.variants().stream().filter(v -> !v.isEmpty()).forEach(known::add);
        known.addAll(List.of("flows", "ports", "queues", "nics", "switches", "collectives", "switch", "nic", "duration"));
        throw new ExpressionException("unknown name '" + name + "' (known: " + String.join(", ", known) + ")");
    }

    private Value member(Value target, String name) {
        if (target instanceof Value.Scope s) {
            return resolve(s.variant(), name);
        }
        if (target instanceof Value.Entity en) {
            return metrics.attribute(en.variant(), en.kind(), en.name(), name);
        }
        if (target instanceof Value.Entities es) {
            List<Value> items = new ArrayList<>();
            for (String n : es.names()) {
                items.add(metrics.attribute(es.variant(), es.kind(), n, name));
            }
            if (items.isEmpty()) {
                // still checks that the attribute exists
                metrics.attribute(es.variant(), es.kind(), null, name);
            }
            return new Value.Many(es.label() + "." + name, items);
        }
        throw new ExpressionException("'." + name + "' after " + describe(target) + ": only a variant, a flow, port, "
            + "queue, NIC or switch (or several) have members");
    }

    private Value call(Expr.Call c) {
        String variant = null;
        if (c.target() != null) {
            Value t = eval(c.target());
            if (!(t instanceof Value.Scope s)) {
                throw new ExpressionException("'" + c.name() + "(...)' after " + describe(t) + ": only a variant can "
                    + "prefix a call, e.g. lossy.flow(\"a\")");
            }
            variant = s.variant();
        }
        for (Kind k : Kind.values()) {
            if (k.one().equals(c.name()) || k.many().equals(c.name())) {
                return select(variant == null ? defaultVariant(c.name() + "(...)") : variant, k,
                    k.many().equals(c.name()), c);
            }
        }
        if (variant != null) {
            throw new ExpressionException("a variant has no function '" + c.name() + "'");
        }
        if (!FUNCTIONS.contains(c.name())) {
            throw new ExpressionException("no function '" + c.name() + "' (known: " + String.join(", ", FUNCTIONS)
                + ", and flow(\"name\"), flows(\"glob\"), port, ports, queue, queues, nic, nics, switch, switches, "
                + "collective, collectives)");
        }
        for (String key : c.named().keySet()) {
            if (!key.equals("from") && !key.equals("to")) {
                throw new ExpressionException(c.name() + "(): no argument '" + key + "' (from=, to=: a time window)");
            }
        }
        if (c.args().isEmpty()) {
            throw new ExpressionException(c.name() + "() needs a value, e.g. " + c.name() + "(flows.rate)");
        }
        List<Value> args = new ArrayList<>();
        for (Expr a : c.args()) {
            args.add(eval(a));
        }
        double from = c.named().containsKey("from") ? number(eval(c.named().get("from"))) : 0;
        double to = c.named().containsKey("to") ? number(eval(c.named().get("to"))) : Double.MAX_VALUE;
        if ((c.name().equals("max") || c.name().equals("min")) && args.size() > 1) {
            double r = c.name().equals("max") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            for (Value v : args) {
                double x = over(c.name(), v, from, to);
                r = c.name().equals("max") ? Math.max(r, x) : Math.min(r, x);
            }
            return new Value.Num(r);
        }
        if (args.size() > 1) {
            throw new ExpressionException(c.name() + "() takes one value");
        }
        Value v = args.get(0);
        return switch (c.name()) {
            case "count" -> new Value.Num(v instanceof Value.Many m ? m.items().size()
                : v instanceof Value.Entities es ? es.names().size() : 1);
            case "abs" -> new Value.Num(Math.abs(number(v)));
            case "first" -> new Value.Num(first(v));
            case "sum" -> {
                double s = 0;
                for (Value i : items(v)) {
                    s += scalar(i, from, to);
                }
                yield new Value.Num(s);
            }
            case "jain" -> {
                double s = 0;
                double sq = 0;
                List<Value> xs = items(v);
                for (Value i : xs) {
                    double x = scalar(i, from, to);
                    s += x;
                    sq += x * x;
                }
                yield new Value.Num(sq == 0 ? Double.NaN : s * s / (xs.size() * sq));
            }
            case "delta", "last" -> {
                if (v instanceof Value.Many m) {
                    List<Value> out = new ArrayList<>();
                    for (Value i : m.items()) {
                        out.add(new Value.Num(over(c.name(), i, from, to)));
                    }
                    yield new Value.Many(c.name() + "(" + m.name() + ")", out);
                }
                yield new Value.Num(over(c.name(), v, from, to));
            }
            default -> new Value.Num(over(c.name(), v, from, to));
        };
    }

    /**
     * {@code first(counter)}: the time, in seconds, of the first sample at which the counter had
     * counted anything (of several, the earliest); infinity if it never did. So a claim can order
     * events: {@code first(nic.cnps_sent) < first(switch.pfc_tx)}.
     */
    private static double first(Value v) {
        if (v instanceof Value.Many m) {
            double r = Double.POSITIVE_INFINITY;
            for (Value i : m.items()) {
                r = Math.min(r, first(i));
            }
            return r;
        }
        if (v instanceof Value.Counter k) {
            if (k.series() == null) {
                throw new ExpressionException(k.name() + " was not sampled over time: add its probe to probes.sample");
            }
            return k.series().firstAbove(0);
        }
        throw new ExpressionException("first() takes a counter, e.g. first(switch.pfc_tx), not " + describe(v));
    }

    /** {@code flow("a")} or {@code flows("a-*")}: the named ones of a kind. */
    private Value select(String variant, Kind kind, boolean many, Expr.Call c) {
        if (c.args().size() != 1 || !c.named().isEmpty() || !(eval(c.args().get(0)) instanceof Value.Text t)) {
            throw new ExpressionException(c.name() + "() takes one quoted name" + (many ? " or glob" : "") + ", e.g. "
                + c.name() + "(\"" + (kind == Kind.FLOW ? "incast-h1" : kind == Kind.NIC ? "h1"
                : kind == Kind.COLLECTIVE ? "ar" : "leaf0:Ethernet0")
                + "\")");
        }
        List<String> known = metrics.names(variant, kind);
        if (!many) {
            if (!known.contains(t.value())) {
                throw new ExpressionException("no " + kind.one() + " '" + t.value() + "'" + hint(known));
            }
            return new Value.Entity(variant, kind, t.value());
        }
        var glob = HostPattern.glob(t.value());
        List<String> names = known.stream().filter(n -> glob.matcher(n).matches()).toList();
        if (names.isEmpty()) {
            throw new ExpressionException("no " + kind.many() + " match '" + t.value() + "'" + hint(known));
        }
        return new Value.Entities(variant, kind, names, kind.many() + "(\"" + t.value() + "\")");
    }

    private static String hint(List<String> known) {
        return known.isEmpty() ? " (there are none)" : " (known: " + String.join(", ",
            known.size() > 6 ? known.subList(0, 6) : known) + (known.size() > 6 ? ", ..." : "") + ")";
    }

    private static List<Value> items(Value v) {
        return v instanceof Value.Many m ? m.items() : List.of(v);
    }

    /** One number per item: a gauge's mean over the window, a counter's total (or increase over a window given). */
    private static double scalar(Value v, double from, double to) {
        if (v instanceof Value.Gauge) {
            return over("mean", v, from, to);
        }
        if (v instanceof Value.Counter && (from > 0 || to < Double.MAX_VALUE)) {
            return over("delta", v, from, to);
        }
        return number(v);
    }

    /** {@code fn} (mean, max, min, last, delta) of one value, or of several: the same over theirs. */
    private static double over(String fn, Value v, double from, double to) {
        if (v instanceof Value.Many m) {
            if (m.items().isEmpty()) {
                return Double.NaN;
            }
            double r = fn.equals("min") ? Double.POSITIVE_INFINITY : fn.equals("max") ? Double.NEGATIVE_INFINITY : 0;
            for (Value i : m.items()) {
                double x = over(fn, i, from, to);
                r = fn.equals("min") ? Math.min(r, x) : fn.equals("max") ? Math.max(r, x) : r + x;
            }
            return fn.equals("mean") ? r / m.items().size() : r;
        }
        if (v instanceof Value.Gauge g) {
            if (fn.equals("delta")) {
                throw new ExpressionException("delta() takes a counter; " + g.name() + " is a gauge (use mean, max, min, "
                    + "last)");
            }
            return windowed(fn, g.series(), from, to);
        }
        if (v instanceof Value.Counter k) {
            if (fn.equals("delta")) {
                if (k.series() == null) {
                    throw new ExpressionException(k.name() + " was not sampled over time: add its probe to probes.sample");
                }
                double end = Math.min(to, Double.MAX_VALUE);
                return k.series().at(end, 0) - k.series().at(from, 0);
            }
            if (from > 0 || to < Double.MAX_VALUE) {
                if (k.series() == null) {
                    throw new ExpressionException(k.name() + " was not sampled over time: add its probe to probes.sample");
                }
                return windowed(fn, k.series(), from, to);
            }
            return k.total();
        }
        if (fn.equals("delta")) {
            throw new ExpressionException("delta() takes a counter, not " + describe(v));
        }
        return number(v);
    }

    private static double windowed(String fn, Series s, double from, double to) {
        double[] w = s.window(from, to);
        if (w.length == 0) {
            return Double.NaN;
        }
        double r = switch (fn) {
            case "max" -> Double.NEGATIVE_INFINITY;
            case "min" -> Double.POSITIVE_INFINITY;
            default -> 0;
        };
        for (double x : w) {
            r = switch (fn) {
                case "max" -> Math.max(r, x);
                case "min" -> Math.min(r, x);
                case "last" -> x;
                default -> r + x;
            };
        }
        return fn.equals("mean") ? r / w.length : r;
    }

    private static Value compare(String op, Value l, Value r) {
        if (l instanceof Value.Many m) {
            for (Value i : m.items()) {
                if (!((Value.Bool) compare(op, i, r)).value()) {
                    return new Value.Bool(false);
                }
            }
            return new Value.Bool(true);
        }
        if (r instanceof Value.Many m) {
            for (Value i : m.items()) {
                if (!((Value.Bool) compare(op, l, i)).value()) {
                    return new Value.Bool(false);
                }
            }
            return new Value.Bool(true);
        }
        if (l instanceof Value.Bool a && r instanceof Value.Bool b && (op.equals("==") || op.equals("!="))) {
            return new Value.Bool(op.equals("==") == (a.value() == b.value()));
        }
        double x = number(l);
        double y = number(r);
        return new Value.Bool(switch (op) {
            case "==" -> x == y;
            case "!=" -> x != y;
            case "<" -> x < y;
            case "<=" -> x <= y;
            case ">" -> x > y;
            case ">=" -> x >= y;
            default -> throw new ExpressionException("unknown operator " + op);
        });
    }

    private static boolean truth(Value v) {
        if (v instanceof Value.Bool b) {
            return b.value();
        }
        throw new ExpressionException("and, or and not take comparisons, not " + describe(v));
    }

    static double number(Value v) {
        if (v instanceof Value.Num n) {
            return n.value();
        }
        if (v instanceof Value.Counter c) {
            return c.total();
        }
        if (v instanceof Value.Gauge g) {
            throw new ExpressionException(g.name() + " is sampled over time: take mean(...), max(...), min(...) or "
                + "last(...) of it");
        }
        if (v instanceof Value.Many m) {
            throw new ExpressionException(m.name() + " is several values: take sum(...), mean(...), max(...), min(...) "
                + "or jain(...) of them, or compare them all");
        }
        throw new ExpressionException("a number is needed, not " + describe(v));
    }

    static String describe(Value v) {
        if (v instanceof Value.Num n) {
            return "the number " + format(n.value());
        }
        if (v instanceof Value.Bool b) {
            return "a truth value (" + b.value() + ")";
        }
        if (v instanceof Value.Text t) {
            return "the text \"" + t.value() + "\"";
        }
        if (v instanceof Value.Gauge g) {
            return "the series " + g.name();
        }
        if (v instanceof Value.Counter c) {
            return "the counter " + c.name();
        }
        if (v instanceof Value.Many m) {
            return "the values " + m.name();
        }
        if (v instanceof Value.Entity e) {
            return e.name() == null ? "the fabric-wide " + e.kind().one() : e.kind().one() + " '" + e.name() + "'";
        }
        if (v instanceof Value.Entities e) {
            return e.label();
        }
        if (v instanceof Value.Scope s) {
            return "the variant " + s.variant();
        }
        return v.toString();
    }
}
