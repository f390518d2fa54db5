package io.rocelab.lab.cli;

import io.rocelab.lab.demo.Demo;
import io.rocelab.lab.demo.DemoFlags;
import io.rocelab.lab.demo.DemoOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Unmatched;

/**
 * {@code rocelab demo}: host-a — leaf — host-b in one process, ib_write_bw and ib_read_lat across the
 * switch, the NIC and switch counters, and a pcapng of the run. The options are the
 * {@link DemoFlags} mixin, which names a mistake in one line (exit code 2).
 */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        customSynopsis = "rocelab demo [--size BYTES] [--iters N | --duration SECONDS] [--lat-iters N]%n"
            + "             [--capture FILE | --no-capture] [--capture-frames N] [--no-congestion] [--no-warmup]%n",
        description = {"Two hosts and a soft switch in this process (no root): runs ib_write_bw and ib_read_lat"
            + " from host-a to host-b across the switch, prints perftest's tables, the NIC counters, the switch's"
            + " SONiC views, and writes a pcapng of the run.", "", "Options:"},
        footer = {"  --size BYTES         ib_write_bw message size (default 65536)",
            "  --iters N            ib_write_bw iterations (default 5000, perftest's)",
            "  --duration SECONDS   run ib_write_bw for a time instead (-D), 1..30",
            "  --lat-iters N        ib_read_lat iterations (default 1000)",
            "  --capture FILE       pcapng of the run (default ./rocelab-demo.pcapng)",
            "  --capture-frames N   frames kept per switch port in each test (default 500)",
            "  --no-capture         write no capture",
            "  --no-congestion      skip the congestion act",
            "  --no-warmup          skip the warm-up (a throwaway copy of the lab writes 1 GB",
            "                       first, so that the JIT has compiled the data path before",
            "                       the measured tests)"})
public final class DemoCommand implements Callable<Integer> {
    @Mixin
    DemoFlags flags = new DemoFlags();

    /** What is none of the demo's flags: each a mistake that {@link DemoFlags#toOptions} names. */
    @Unmatched
    List<String> unmatched = new ArrayList<>();

    @Override
    public Integer call() {
        DemoOptions options;
        try {
            options = flags.toOptions(unmatched);
        } catch (IllegalArgumentException e) {
            throw new UserError("demo: " + e.getMessage());
        }
        try {
            return new Demo(options, System.out, System.err).run();
        } catch (IllegalArgumentException e) {
            throw new UserError("demo: " + e.getMessage());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UserError("demo: cannot create the capture " + e.getFile() + ": no such directory");
        } catch (java.nio.file.AccessDeniedException e) {
            throw new UserError("demo: cannot create the capture " + e.getFile() + ": permission denied");
        } catch (IOException e) {
            throw new UserError("demo: cannot write the capture: " + e.getMessage());
        } finally {
            System.out.flush();
        }
    }
}
