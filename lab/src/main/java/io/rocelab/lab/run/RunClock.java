package io.rocelab.lab.run;

import io.rocelab.lab.labfile.LabFlow;
import io.rocelab.lab.labfile.Mode;
import io.rocelab.lab.labfile.RunSpec;
import io.rocelab.topology.fabric.Fabric;
import io.rocelab.topology.fabric.FabricMode;
import io.rocelab.topology.model.Topology;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * How time passes in a lab run. In virtual time the runner drives the fabric's one scheduler from
 * sample to sample, and everything it reads, it reads between events. Live, the fabric runs on the
 * wall clock by itself, on one event loop shared by every NIC and switch (so one task on that loop
 * may read every node), and the runner waits for each sample time and samples on that loop. On the
 * Linux network ({@link NetnsTestbed}) the same live fabric runs on veth pairs between namespaces.
 */
interface RunClock extends AutoCloseable {
    /** @return the topology brought to life for this clock */
    Fabric start(Topology topology, long seed);

    /**
     * Plugs the started fabric into what lies outside this process (netns: the veths); closed before
     * the fabric is.
     */
    default AutoCloseable attach(Fabric fabric) {
        return () -> { };
    }

    /**
     * The fabric's switches and NICs run LLDP ({@code lldp: true}): starts what runs LLDP beside them
     * outside this process (netns: lldpd on the linux hosts), so that its first LLDPDUs find them
     * listening; closed before {@link #attach}'s.
     */
    default AutoCloseable lldpStarted(Fabric fabric) {
        return () -> { };
    }

    /**
     * Starts the flows that real programs run ({@code verb: tcp}), timed from {@code epochNanos} on
     * the fabric's clock.
     *
     * @throws IllegalArgumentException where no real program can run
     */
    default ProgramFlows programs(Fabric fabric, List<LabFlow> flows, long epochNanos) {
        if (!flows.isEmpty()) {
            throw new IllegalArgumentException("flow '" + flows.get(0).name() + "' is a tcp flow: it runs only with "
                + "--mode netns");
        }
        return ProgramFlows.NONE;
    }

    /** @return lines about the run for its output and report, once closed (netns: the captures taken) */
    default List<String> notes() {
        return List.of();
    }

    /** Removes what {@link #start} made outside the process (netns: the namespaces). */
    @Override
    default void close() {
    }

    /** Lets the fabric run until {@code atNanos} on its own clock. */
    void runUntil(Fabric fabric, long atNanos);

    /**
     * Lets the fabric run until {@code done} holds (read where {@link #onFabric} reads) or its clock
     * reaches {@code deadlineNanos}. Live: checked every millisecond.
     */
    default void runUntil(Fabric fabric, java.util.function.BooleanSupplier done, long deadlineNanos) {
        Topology t = fabric.topology();
        String node = !t.switches().isEmpty() ? t.switches().get(0).name() : t.hosts().get(0).name();
        while (!onFabric(fabric, done::getAsBoolean)) {
            long now = onFabric(fabric, () -> fabric.scheduler(node).nanoTime());
            if (now >= deadlineNanos) {
                return;
            }
            runUntil(fabric, Math.min(deadlineNanos, now + 1_000_000L));
        }
    }

    /** Runs {@code what} where it may read and change every node of the fabric, and waits for it. */
    <T> T onFabric(Fabric fabric, Callable<T> what);

    /** @return the scheduler events a run executed, or -1 where nobody counts them (live) */
    long events(Fabric fabric);

    /**
     * @return the clock of {@code mode} for {@code run}
     * @param captureFile the run's capture file (tshark's go beside it), or null
     */
    static RunClock of(Mode mode, RunSpec run, java.nio.file.Path captureFile) {
        return of(mode, run, captureFile, 0);
    }

    /**
     * @param threads virtual time: split the fabric into logical processes run by this many threads
     *                ({@code Fabric.Builder.threads}); 0 for one scheduler
     */
    static RunClock of(Mode mode, RunSpec run, java.nio.file.Path captureFile, int threads) {
        return switch (mode) {
            case VIRTUAL -> new Virtual(threads);
            case LIVE -> new Live();
            case NETNS -> new NetnsTestbed(run, captureFile);
        };
    }

    /**
     * Deterministic virtual time: one seed, one result, bit for bit. Split into logical processes
     * ({@code threads} above 0), the same result on any number of threads; the runner then drives the
     * global scheduler, and what it reads, it reads at a barrier with every LP stopped.
     */
    final class Virtual implements RunClock {
        private final int threads;

        Virtual() {
            this(0);
        }

        Virtual(int threads) {
            this.threads = threads;
        }

        @Override
        public Fabric start(Topology topology, long seed) {
            return threads > 0 ? Fabric.builder(topology).seed(seed).threads(threads).start()
                : Fabric.virtualTime(topology, seed);
        }

        @Override
        public void runUntil(Fabric fabric, long atNanos) {
            fabric.virtualTime().runUntil(atNanos);
        }

        @Override
        public void runUntil(Fabric fabric, java.util.function.BooleanSupplier done, long deadlineNanos) {
            long now = fabric.virtualTime().nanoTime();
            if (deadlineNanos > now) {
                fabric.runUntil(done, deadlineNanos - now);
            }
        }

        @Override
        public <T> T onFabric(Fabric fabric, Callable<T> what) {
            try {
                return what.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }

        @Override
        public long events(Fabric fabric) {
            return fabric.virtualTime().eventsExecuted();
        }
    }

    /** The wall clock: soft NICs and switches in real time, all on one event loop. */
    final class Live implements RunClock {
        /** How long a sample may take on the fabric's loop, which is busy with the traffic too. */
        private static final long SAMPLE_WAIT_SECONDS = 60;

        @Override
        public Fabric start(Topology topology, long seed) {
            return Fabric.builder(topology).mode(FabricMode.REAL_TIME).seed(seed).eventLoops(1).start();
        }

        @Override
        public void runUntil(Fabric fabric, long atNanos) {
            var clock = fabric.scheduler(anyNode(fabric));
            for (long left; (left = atNanos - clock.nanoTime()) > 0; ) {
                LockSupport.parkNanos(Math.min(left, 10_000_000L));
            }
        }

        @Override
        public <T> T onFabric(Fabric fabric, Callable<T> what) {
            return fabric.onOwner(anyNode(fabric), what, SAMPLE_WAIT_SECONDS);
        }

        @Override
        public long events(Fabric fabric) {
            return -1;
        }

        private static String anyNode(Fabric fabric) {
            Topology t = fabric.topology();
            return !t.hosts().isEmpty() ? t.hosts().get(0).name() : t.switches().get(0).name();
        }
    }
}
