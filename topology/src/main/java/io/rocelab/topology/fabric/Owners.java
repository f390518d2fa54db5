package io.rocelab.topology.fabric;

import io.rocelab.fabric.time.BusyPollScheduler;
import io.rocelab.fabric.time.PartitionedVirtualTime;
import io.rocelab.fabric.time.RealTimeScheduler;
import io.rocelab.fabric.time.Scheduler;
import io.rocelab.fabric.time.VirtualTimeScheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The owner thread of every node: the one virtual-time scheduler, or in real time an event loop each,
 * or a few event loops shared round robin (as Netty shares an event loop group's loops among its
 * channels): nodes on one loop hand frames to each other without waking another thread, which on a
 * machine with fewer cores than nodes is most of what a frame costs.
 */
final class Owners implements AutoCloseable {
    private static final long WAIT_SECONDS = 10;
    private final VirtualTimeScheduler virtual;
    /** Virtual time split into LPs, or null (one scheduler for everything). */
    private final PartitionedVirtualTime partition;
    private final LogicalProcesses lps;
    private final Map<String, Scheduler> byNode = new HashMap<>();
    private final List<Scheduler> loops = new ArrayList<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    /** Real time: at most this many loops, shared round robin; 0 for one loop per node. */
    private final int maxLoops;
    /** Real time: loops that poll (spinning) instead of sleeping in the kernel. */
    private final boolean busyPoll;

    Owners(FabricMode mode, int maxLoops) {
        this(mode, maxLoops, false);
    }

    /**
     * @param maxLoops real time: the most event loops to start, shared by the nodes round robin; 0 for
     *                 one loop per node
     * @param busyPoll real time: {@link BusyPollScheduler}s that spin, not event loops that sleep
     */
    Owners(FabricMode mode, int maxLoops, boolean busyPoll) {
        this(mode, maxLoops, busyPoll, null, 0);
    }

    /**
     * @param lps     virtual time: the LPs to split the fabric into, or null (or one LP) for one
     *                scheduler
     * @param threads virtual time with LPs: the worker threads
     */
    Owners(FabricMode mode, int maxLoops, boolean busyPoll, LogicalProcesses lps, int threads) {
        this.busyPoll = busyPoll;
        if (maxLoops < 0) {
            throw new IllegalArgumentException("event loops must be 0 (one per node) or more: " + maxLoops);
        }
        boolean parallel = mode == FabricMode.VIRTUAL && lps != null && lps.parallel();
        this.lps = parallel ? lps : null;
        this.partition = parallel ? new PartitionedVirtualTime(lps.count(), lps.lookaheadNanos(), threads) : null;
        this.virtual = mode != FabricMode.VIRTUAL ? null : parallel ? partition.global() : new VirtualTimeScheduler();
        this.maxLoops = maxLoops;
    }

    /** @return the virtual-time scheduler (partitioned: the global one, which drives the run), or null in real time */
    VirtualTimeScheduler virtual() {
        return virtual;
    }

    /** @return the partitioned run, or null */
    PartitionedVirtualTime partition() {
        return partition;
    }

    /**
     * Gives {@code node} its owner: the virtual scheduler, a new event loop named after it, or, with
     * shared loops, the next loop round robin.
     */
    Scheduler add(String node) {
        Scheduler s;
        if (partition != null) {
            s = partition.lp(lps.lpOf().get(node));
        } else if (virtual != null) {
            s = virtual;
        } else if (maxLoops == 0 || loops.size() < maxLoops) {
            s = startLoop(maxLoops == 0 ? node : "rocelab-loop-" + loops.size());
            loops.add(s);
        } else {
            s = loops.get(byNode.size() % maxLoops);
        }
        byNode.put(node, s);
        return s;
    }

    private Scheduler startLoop(String name) {
        if (busyPoll) {
            BusyPollScheduler b = BusyPollScheduler.start(name, BusyPollScheduler.idleStrategy("spin"));
            toClose.add(b);
            return b;
        }
        // epoll where it loads: its timers wake an idle loop within microseconds, NIO's in whole milliseconds
        RealTimeScheduler r = RealTimeScheduler.start(name);
        toClose.add(r);
        return r;
    }

    /** @return the owner of {@code node}, or null */
    Scheduler of(String node) {
        return byNode.get(node);
    }

    /** Runs {@code what} on {@code owner}'s thread and waits for it (at once if this is that thread). */
    static <T> T on(Scheduler owner, Callable<T> what) {
        return on(owner, what, WAIT_SECONDS);
    }

    /** Like {@link #on(Scheduler, Callable)}, waiting up to {@code waitSeconds}. */
    static <T> T on(Scheduler owner, Callable<T> what, long waitSeconds) {
        if (owner.inOwnerThread() || owner instanceof VirtualTimeScheduler) {
            try {
                return what.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        owner.execute(() -> {
            try {
                f.complete(what.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        try {
            return f.get(waitSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + owner, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(owner + " did not answer within " + waitSeconds + " s", e);
        }
    }

    @Override
    public void close() {
        if (partition != null) {
            partition.close();
        }
        for (AutoCloseable loop : toClose) {
            try {
                loop.close();
            } catch (Exception e) {
                throw new IllegalStateException("stopping " + loop + ": " + e.getMessage(), e);
            }
        }
    }
}
