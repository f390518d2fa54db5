package io.rocelab.lab.cli.perftest;

import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.nic.NicTool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * perftest's eight tools as {@code rocelab} subcommands. picocli only routes: every argument after
 * the tool's name goes, untouched and in order, to perftest's own parser (with rocelab's
 * {@code --udp-frame}, {@code --in-process}, {@code --ip}, {@code --mac}, {@code --active-mtu},
 * {@code --psn-seed} taken out first), so the flags, messages and exit codes are perftest's.
 *
 * <pre>
 *   rocelab ib_write_bw --udp-frame 40000:40001                    # server
 *   rocelab ib_write_bw --udp-frame 40001:40000 127.0.0.1          # client
 *   rocelab ib_write_bw --in-process -s 4096                       # both in one process
 * </pre>
 */
public final class PerftestCommands {
    private PerftestCommands() {
    }

    /** What the eight commands share: the raw arguments and the run. */
    abstract static class Tool implements Callable<Integer> {
        @Unmatched
        List<String> args = new ArrayList<>();

        abstract TestKind kind();

        @Override
        public Integer call() {
            int status = NicTool.run(kind(), args.toArray(new String[0]), System.out, System.err);
            System.out.flush();
            return status;
        }
    }

    @Command(name = "ib_write_bw", description = "perftest's ib_write_bw (RDMA write bandwidth) on the soft NIC; -h for its flags")
    public static final class IbWriteBw extends Tool {
        @Override
        TestKind kind() {
            return TestKind.WRITE_BW;
        }
    }

    @Command(name = "ib_write_lat", description = "perftest's ib_write_lat (RDMA write latency) on the soft NIC; -h for its flags")
    public static final class IbWriteLat extends Tool {
        @Override
        TestKind kind() {
            return TestKind.WRITE_LAT;
        }
    }

    @Command(name = "ib_read_bw", description = "perftest's ib_read_bw (RDMA read bandwidth) on the soft NIC; -h for its flags")
    public static final class IbReadBw extends Tool {
        @Override
        TestKind kind() {
            return TestKind.READ_BW;
        }
    }

    @Command(name = "ib_read_lat", description = "perftest's ib_read_lat (RDMA read latency) on the soft NIC; -h for its flags")
    public static final class IbReadLat extends Tool {
        @Override
        TestKind kind() {
            return TestKind.READ_LAT;
        }
    }

    @Command(name = "ib_send_bw", description = "perftest's ib_send_bw (send bandwidth) on the soft NIC; -h for its flags")
    public static final class IbSendBw extends Tool {
        @Override
        TestKind kind() {
            return TestKind.SEND_BW;
        }
    }

    @Command(name = "ib_send_lat", description = "perftest's ib_send_lat (send latency) on the soft NIC; -h for its flags")
    public static final class IbSendLat extends Tool {
        @Override
        TestKind kind() {
            return TestKind.SEND_LAT;
        }
    }

    @Command(name = "ib_atomic_bw", description = "perftest's ib_atomic_bw (atomic bandwidth) on the soft NIC; -h for its flags")
    public static final class IbAtomicBw extends Tool {
        @Override
        TestKind kind() {
            return TestKind.ATOMIC_BW;
        }
    }

    @Command(name = "ib_atomic_lat", description = "perftest's ib_atomic_lat (atomic latency) on the soft NIC; -h for its flags")
    public static final class IbAtomicLat extends Tool {
        @Override
        TestKind kind() {
            return TestKind.ATOMIC_LAT;
        }
    }

    /** The subcommand classes, in perftest's order. */
    public static final Class<?>[] ALL = {
        IbWriteBw.class,
        IbWriteLat.class,
        IbReadBw.class,
        IbReadLat.class,
        IbSendBw.class,
        IbSendLat.class,
        IbAtomicBw.class,
        IbAtomicLat.class
    };
}
