package io.rocelab.lab.interop;

import io.rocelab.lab.cli.CommandLines;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rocelab decode} run in this JVM on a capture, with its totals line read back: the check
 * every interop test makes of what crossed the wire.
 *
 * @param exitCode decode's exit status (0: every RoCEv2 frame well-formed with a good ICRC)
 * @param out      what it printed
 * @param err      its error output
 * @param frames   frames in the capture, or -1 when no totals line was printed
 * @param roce     RoCEv2 frames among them
 * @param icrcOk   RoCEv2 frames with a good ICRC
 */
record RocelabDecode(int exitCode, String out, String err, long frames, long roce, long icrcOk) {
    /** decode's totals line, when no RoCEv2 frame was bad or malformed. */
    private static final Pattern ALL_GOOD =
            Pattern.compile("(?m)^(\\d+) frames: (\\d+) RoCEv2 \\((\\d+) ICRC OK, 0 ICRC bad\\), 0 malformed");

    /**
     * Decodes {@code pcap}.
     *
     * @param quiet {@code -q}: only the problem frames and the totals are printed
     */
    static RocelabDecode run(Path pcap, boolean quiet) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = CommandLines.create();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = quiet ? cl.execute("decode", "-q", pcap.toString()) : cl.execute("decode", pcap.toString());
        Matcher m = ALL_GOOD.matcher(out.toString());
        if (!m.find()) {
            return new RocelabDecode(code, out.toString(), err.toString(), -1, -1, -1);
        }
        return new RocelabDecode(code, out.toString(), err.toString(), Long.parseLong(m.group(1)),
                Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }

    /** Whether decode exited 0 and its totals say every RoCEv2 frame was well-formed with a good ICRC. */
    boolean allGood() {
        return exitCode == 0 && frames >= 0 && roce == icrcOk;
    }

    /** The last {@code n} lines of the output (with {@code -q}: the problem frames and the totals). */
    String tail(int n) {
        List<String> lines = out.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()))
                + (err.isBlank() ? "" : "\n" + err.strip());
    }
}
