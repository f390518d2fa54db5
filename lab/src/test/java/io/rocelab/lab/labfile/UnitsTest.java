package io.rocelab.lab.labfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocelab.lab.expect.Expr;
import io.rocelab.lab.expect.ExpressionException;
import io.rocelab.lab.expect.ExpressionParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A number with a unit means the same in a lab file's fields and in its claims, and the docs list every unit. */
class UnitsTest {
    private static final Path ROOT = Path.of(System.getProperty("rocelab.root", ".."));

    /** What a field of the unit's dimension reads {@code text} as (nanoseconds, bytes, bits per second, a fraction). */
    private static double field(Units.Dimension d, String text) {
        return switch (d) {
            case TIME -> Quantity.nanos(text);
            case SIZE -> Quantity.bytes(text);
            case RATE -> Quantity.bitsPerSecond(text);
            case FRACTION -> Quantity.fraction(text);
        };
    }

    /** What a claim reads {@code text} as, in the field's base (a claim's times are seconds). */
    private static double claim(Units.Dimension d, String text) {
        Expr e = ExpressionParser.parse(text);
        double v = assertInstanceOf(Expr.Num.class, e, text).value();
        return d == Units.Dimension.TIME ? v * 1e9 : v;
    }

    /** The spellings a field takes of {@code u}: as listed; a size's or a rate's in any case. */
    private static Set<String> fieldSpellings(Units.Unit u) {
        Set<String> out = new LinkedHashSet<>();
        out.add(u.spelling());
        if (u.dimension() == Units.Dimension.SIZE || u.dimension() == Units.Dimension.RATE) {
            out.add(u.spelling().toLowerCase(Locale.ROOT));
            out.add(u.spelling().toUpperCase(Locale.ROOT));
        }
        return out;
    }

    @Test
    void everyUnitAFieldTakesAClaimTakesAndMeansTheSame() {
        int checked = 0;
        for (Units.Unit u : Units.ALL) {
            for (String spelling : fieldSpellings(u)) {
                // whole in every base: a field rounds a time to whole nanoseconds, a size to whole bytes
                for (String number : new String[] {"3", "250", "1000"}) {
                    String text = number + spelling;
                    double f = field(u.dimension(), text);
                    double c = claim(u.dimension(), text);
                    assertEquals(f, c, Math.abs(f) * 1e-12, text + ": a field reads " + f + ", a claim " + c);
                    checked++;
                }
            }
        }
        assertTrue(checked > 3 * Units.ALL.size(), "every unit, in every case a field takes: " + checked);
    }

    @Test
    void theUnitsThatWereFieldsOnlyMeanTheSameInClaims() {
        assertEquals(500_000, Quantity.nanos("500µs"));
        assertEquals(500e-6, ((Expr.Num) ExpressionParser.parse("500µs")).value(), 1e-18);
        assertEquals(400_000_000, Quantity.bitsPerSecond("400Mb/s"));
        assertEquals(4e8, ((Expr.Num) ExpressionParser.parse("400Mb/s")).value());
        assertEquals(25e9, ((Expr.Num) ExpressionParser.parse("25Gb/s")).value());
    }

    @Test
    void aSlashAfterANumberIsStillADivisionWhereNoUnitEndsThere() {
        Expr half = ExpressionParser.parse("16MB/2");
        assertEquals("/", assertInstanceOf(Expr.Binary.class, half).op());
        Expr perName = ExpressionParser.parse("8Mb/sent");
        assertEquals("/", assertInstanceOf(Expr.Binary.class, perName).op(), "Mb/s only where the s ends the word");
        Expr kib = ExpressionParser.parse("64KiB/s");
        assertEquals("/", assertInstanceOf(Expr.Binary.class, kib).op(), "no unit KiB/s: a size over a name");
    }

    @Test
    void aTimesCaseMattersInFieldsAndSOrMsIsNoUnitInClaims() {
        assertThrows(IllegalArgumentException.class, () -> Quantity.nanos("2MS"));
        assertThrows(ExpressionException.class, () -> ExpressionParser.parse("2S"));
        assertThrows(ExpressionException.class, () -> ExpressionParser.parse("2Ms"));
        assertThrows(ExpressionException.class, () -> ExpressionParser.parse("2parsecs"));
    }

    @Test
    void labsReadmeListsEveryUnit() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("labs/README.md"));
        int at = lines.indexOf(lines.stream().filter(l -> l.startsWith("- Numbers take units:")).findFirst()
            .orElseThrow());
        StringBuilder item = new StringBuilder(lines.get(at));
        for (int i = at + 1; i < lines.size() && lines.get(i).startsWith("  "); i++) {
            item.append(' ').append(lines.get(i).trim());
        }
        String line = item.toString();
        for (Units.Unit u : Units.ALL) {
            assertTrue(line.contains(" " + u.spelling() + " ") || line.contains("`" + u.spelling() + " ")
                || line.contains(" " + u.spelling() + "`") || line.contains("`" + u.spelling() + "`"),
                "labs/README.md's unit line lists " + u.spelling() + ": " + line);
        }
    }
}
