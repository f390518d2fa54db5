package io.rocelab.lab.cli;

import io.rocelab.lab.captures.ReferenceCaptures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rocelab reference-captures DIR}: (re)writes the reference captures of {@code captures/}. */
@Command(name = "reference-captures",
        description = "Write the reference captures (one per opcode family, IPv4/IPv6/VLAN, ECN+CNP, PFC) into DIR.",
        mixinStandardHelpOptions = true)
public final class ReferenceCapturesCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", description = "directory to write into (created if missing)")
    Path dir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            for (Path p : new ReferenceCaptures(dir).writeAll()) {
                spec.commandLine().getOut().println("wrote " + p);
            }
            return 0;
        } catch (IOException e) {
            throw new UserError("cannot write captures to " + dir + ": " + e.getMessage());
        }
    }
}
