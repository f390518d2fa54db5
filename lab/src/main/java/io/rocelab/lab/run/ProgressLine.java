package io.rocelab.lab.run;

import io.rocelab.lab.labfile.Quantity;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * A long run's progress: simulated time reached, wall time, ETA. On a terminal one line redrawn in
 * place (at most five times a second); elsewhere (a log file) a line at each quarter of a run that
 * has taken more than two seconds, so logs stay short. A live run's line may say more: a detail
 * read only when a line is drawn ({@link #withDetail}, the ports most paused and the deepest queue),
 * so a virtual-time run's lines stay as they were.
 */
public final class ProgressLine implements LabRunner.Progress {
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final long QUIET_NANOS = 2_000_000_000L;
    private final PrintWriter out;
    private final boolean terminal;
    private final String label;
    private final long startWall = System.nanoTime();
    private long lastDraw;
    private int quarter;
    private int drawnWidth;
    private java.util.function.Supplier<String> detail;

    public ProgressLine(PrintWriter out, boolean terminal, String label) {
        this.out = out;
        this.terminal = terminal;
        this.label = label;
    }

    /**
     * Adds {@code detail} to each line drawn (after the ETA, " | " between): asked only when a line
     * is drawn; an empty detail adds nothing, a failing one says why in place.
     *
     * @return this
     */
    public ProgressLine withDetail(java.util.function.Supplier<String> detail) {
        this.detail = detail;
        return this;
    }

    private String detailed(String line) {
        if (detail == null) {
            return line;
        }
        String d;
        try {
            d = detail.get();
        } catch (RuntimeException e) {
            d = "(" + e.getMessage() + ")";
        }
        return d == null || d.isEmpty() ? line : line + " | " + d;
    }

    /** @return whether standard output is a terminal (not a file or a pipe) */
    public static boolean stdoutIsTerminal() {
        java.io.Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            // Java 22+: a console exists for redirected output too; ask whether it is a terminal
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    @Override
    public void at(long simulatedNanos, long durationNanos) {
        long now = System.nanoTime();
        long wall = now - startWall;
        double done = durationNanos == 0 ? 1 : (double) simulatedNanos / durationNanos;
        String line = String.format(Locale.ROOT, "  %s%s of %s simulated, wall %.1f s, ETA %s", label,
            Quantity.formatNanos(simulatedNanos), Quantity.formatNanos(durationNanos), wall / 1e9,
            done <= 0 ? "?" : String.format(Locale.ROOT, "%.0f s", wall / 1e9 * (1 - done) / done));
        if (terminal) {
            if (now - lastDraw >= REDRAW_NANOS || done >= 1) {
                lastDraw = now;
                line = done >= 1 ? line : detailed(line);
                out.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
                drawnWidth = line.length();
                if (done >= 1) {
                    out.print("\r" + " ".repeat(drawnWidth) + "\r");
                }
                out.flush();
            }
            return;
        }
        int q = (int) Math.floor(done * 4);
        if (q > quarter && q < 4 && wall > QUIET_NANOS) {
            out.println(detailed(line));
            out.flush();
        }
        quarter = Math.max(quarter, q);
    }
}
