package io.rocelab.sw.vxlan;

import java.util.List;

/**
 * Python tabulate's {@code simple} and {@code grid} formats as sonic-utilities calls them: a column
 * is as wide as its widest cell or its header plus two (tabulate's MIN_PADDING), numbers right-aligned,
 * text left-aligned unless the caller says otherwise; the last column of a {@code simple} table is not
 * padded (the lines end with their text).
 */
final class Tabulate {
    private static final String NL = System.lineSeparator();

    private Tabulate() {
    }

    static String simple(String[] header, List<String[]> rows, boolean allRight) {
        int[] w = widths(header, rows);
        boolean[] right = right(header, rows, allRight);
        StringBuilder b = new StringBuilder();
        line(b, header, w, right);
        String[] rule = new String[w.length];
        for (int i = 0; i < w.length; i++) {
            rule[i] = "-".repeat(w[i]);
        }
        line(b, rule, w, right);
        rows.forEach(r -> line(b, r, w, right));
        return b.toString();
    }

    static String grid(String[] header, List<String[]> rows) {
        int[] w = widths(header, rows);
        boolean[] right = right(header, rows, false);
        StringBuilder b = new StringBuilder();
        rule(b, w, '-');
        gridLine(b, header, w, right);
        rule(b, w, '=');
        for (String[] r : rows) {
            gridLine(b, r, w, right);
            rule(b, w, '-');
        }
        return b.toString();
    }

    private static int[] widths(String[] header, List<String[]> rows) {
        int[] w = new int[header.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = header[i].length() + 2;
            for (String[] r : rows) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        return w;
    }

    /** A column of numbers (every non-empty cell) is right-aligned, as tabulate's numparse does. */
    private static boolean[] right(String[] header, List<String[]> rows, boolean allRight) {
        boolean[] right = new boolean[header.length];
        for (int i = 0; i < right.length; i++) {
            boolean numbers = false;
            boolean text = false;
            for (String[] r : rows) {
                numbers |= r[i].matches("-?\\d+(\\.\\d+)?");
                text |= !r[i].isEmpty() && !r[i].matches("-?\\d+(\\.\\d+)?");
            }
            numbers &= !text;
            right[i] = allRight || numbers;
        }
        return right;
    }

    private static void line(StringBuilder b, String[] cells, int[] w, boolean[] right) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            l.append(pad(cells[i], w[i], right[i]));
            if (i < cells.length - 1) {
                l.append("  ");
            }
        }
        b.append(l.toString().stripTrailing()).append(NL);
    }

    private static void gridLine(StringBuilder b, String[] cells, int[] w, boolean[] right) {
        b.append('|');
        for (int i = 0; i < cells.length; i++) {
            b.append(' ').append(pad(cells[i], w[i], right[i])).append(" |");
        }
        b.append(NL);
    }

    private static void rule(StringBuilder b, int[] w, char c) {
        b.append('+');
        for (int x : w) {
            b.append(String.valueOf(c).repeat(x + 2)).append('+');
        }
        b.append(NL);
    }

    private static String pad(String s, int w, boolean right) {
        String fill = " ".repeat(Math.max(0, w - s.length()));
        return right ? fill + s : s + fill;
    }
}
