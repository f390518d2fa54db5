package io.rocelab.lab.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The demo's flags as picocli reads them: the mixin of {@code rocelab demo}, turned into
 * {@link DemoOptions} by {@link #toOptions()}. A mistake is one line naming it (an
 * {@link IllegalArgumentException}, which the command reports with exit code 2), never picocli's
 * two-line usage error: every flag takes an optional value and is kept as text ({@code --iters}
 * with no value and {@code --no-warmup=1} are this class's errors to name), an unknown flag or a
 * stray argument is left unmatched (the command's {@code @Unmatched}) and named, and a flag given twice keeps its
 * last value (each one checked). The flags are hidden from picocli's option list: the demo's help lists them in its
 * own words.
 */
@Command
public final class DemoFlags {
    /** What picocli puts in for a flag given without a value: a NUL, which no real argument holds. */
    static final String NO_VALUE = "\u0000";

    @Option(names = "--size", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> size = new ArrayList<>();
    @Option(names = "--iters", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> iters = new ArrayList<>();
    @Option(names = "--duration", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> duration = new ArrayList<>();
    @Option(names = "--lat-iters", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> latIters = new ArrayList<>();
    @Option(names = "--capture-frames", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> captureFrames = new ArrayList<>();
    @Option(names = "--capture", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> capture = new ArrayList<>();
    @Option(names = "--no-capture", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> noCapture = new ArrayList<>();
    @Option(names = "--no-congestion", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> noCongestion = new ArrayList<>();
    @Option(names = "--no-warmup", arity = "0..1", fallbackValue = NO_VALUE, hidden = true)
    List<String> noWarmup = new ArrayList<>();

    /**
     * Reads a demo command line with this mixin alone (what {@code rocelab demo} reads, without its
     * {@code --help}).
     *
     * @throws IllegalArgumentException with a one-line message naming what is wrong
     */
    public static DemoOptions parse(List<String> args) {
        DemoFlags flags = new DemoFlags();
        CommandLine cl = new CommandLine(flags);
        cl.setUnmatchedArgumentsAllowed(true);
        cl.parseArgs(args.toArray(new String[0]));
        return flags.toOptions(cl.getUnmatchedArguments());
    }

    /**
     * The demo's options from the flags given.
     *
     * @param unmatched the arguments that are none of the demo's flags (the command's {@code @Unmatched})
     * @throws IllegalArgumentException with a one-line message naming what is wrong
     */
    public DemoOptions toOptions(List<String> unmatched) {
        for (String a : unmatched) {
            throw new IllegalArgumentException(a.startsWith("-")
                ? "unknown option '" + a + "' (options: --size, --iters, --duration, --lat-iters, --capture,"
                    + " --capture-frames, --no-capture, --no-congestion, --no-warmup)"
                : "unexpected argument '" + a + "': the demo takes options only");
        }
        long size = this.size.isEmpty() ? DemoOptions.DEFAULT_SIZE : number("--size", this.size, 1, DemoOptions.MAX_SIZE);
        Integer iters = this.iters.isEmpty() ? null
            : (int) number("--iters", this.iters, 5, DemoOptions.MAX_ITERATIONS);
        Integer duration = this.duration.isEmpty() ? null
            : (int) number("--duration", this.duration, 1, DemoOptions.MAX_DURATION);
        int latIters = this.latIters.isEmpty() ? DemoOptions.DEFAULT_LAT_ITERATIONS
            : (int) number("--lat-iters", this.latIters, 5, DemoOptions.MAX_ITERATIONS);
        int frames = captureFrames.isEmpty() ? DemoOptions.DEFAULT_FRAMES_PER_PORT
            : (int) number("--capture-frames", captureFrames, 0, DemoOptions.MAX_ITERATIONS);
        String file = null;
        if (!capture.isEmpty()) {
            for (String v : capture) {
                file = value("--capture", v);
                if (file.isEmpty()) {
                    throw new IllegalArgumentException("--capture needs a file name");
                }
            }
        }
        boolean noCapture = flag("--no-capture", this.noCapture);
        boolean congestion = !flag("--no-congestion", noCongestion);
        boolean warmup = !flag("--no-warmup", noWarmup);
        if (iters != null && duration != null) {
            throw new IllegalArgumentException("--iters and --duration both set the length of ib_write_bw; give one");
        }
        if (noCapture && file != null) {
            throw new IllegalArgumentException("--capture and --no-capture contradict each other; give one");
        }
        int n = duration != null ? 0 : iters != null ? iters : DemoOptions.DEFAULT_ITERATIONS;
        Path path;
        try {
            path = noCapture ? null : Path.of(file != null ? file : DemoOptions.DEFAULT_CAPTURE);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("--capture: '" + file + "' is not a file name");
        }
        return new DemoOptions(size, n, duration != null ? duration : 0, latIters, path, frames, congestion, warmup);
    }

    /** One occurrence's value, which it must have. */
    private static String value(String name, String given) {
        if (NO_VALUE.equals(given)) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return given;
    }

    /** Whether a flag without a value was given; a value is a mistake. */
    private static boolean flag(String name, List<String> given) {
        for (String v : given) {
            if (!NO_VALUE.equals(v)) {
                throw new IllegalArgumentException(name + " takes no value");
            }
        }
        return !given.isEmpty();
    }

    /** The last occurrence's number; every occurrence is checked, in order. */
    private static long number(String name, List<String> given, long min, long max) {
        long last = 0;
        for (String text : given) {
            last = number(name, value(name, text), min, max);
        }
        return last;
    }

    private static long number(String name, String text, long min, long max) {
        long v;
        try {
            v = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " wants a whole number " + min + ".." + max + ", got '" + text
                + "'");
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " must be " + min + ".." + max + ", got " + v);
        }
        return v;
    }
}
