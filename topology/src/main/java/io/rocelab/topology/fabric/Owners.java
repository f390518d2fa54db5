package io.rocelab.topology.fabric;

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
 * The owner thread of every node: the one virtual-time scheduler, or an event loop each.
 */
final class Owners implements AutoCloseable {
    private static final long WAIT_SECONDS = 10;
    private final VirtualTimeScheduler virtual;
    private final Map<String, Scheduler> byNode = new HashMap<>();
    private final List<RealTimeScheduler> loops = new ArrayList<>();

    Owners(FabricMode mode) {
        this.virtual = mode == FabricMode.VIRTUAL ? new VirtualTimeScheduler() : null;
    }

    /** @return the virtual-time scheduler, or null in real time */
    VirtualTimeScheduler virtual() {
        return virtual;
    }

    /** Gives {@code node} its owner: the virtual scheduler, or a new event loop named after it. */
    Scheduler add(String node) {
        Scheduler s;
        if (virtual != null) {
            s = virtual;
        } else {
            RealTimeScheduler loop = RealTimeScheduler.start(node);
            loops.add(loop);
            s = loop;
        }
        byNode.put(node, s);
        return s;
    }

    /** @return the owner of {@code node}, or null */
    Scheduler of(String node) {
        return byNode.get(node);
    }

    /** Runs {@code what} on {@code owner}'s thread and waits for it (at once if this is that thread). */
    static <T> T on(Scheduler owner, Callable<T> what) {
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
            return f.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + owner, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(owner + " did not answer within " + WAIT_SECONDS + " s", e);
        }
    }

    @Override
    public void close() {
        for (RealTimeScheduler loop : loops) {
            loop.close();
        }
    }
}
