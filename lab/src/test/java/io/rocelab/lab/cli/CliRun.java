package io.rocelab.lab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the {@code rocelab} command line in-process and captures what it prints. */
record CliRun(int exitCode, String out, String err) {
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = CommandLines.create();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
