package io.rocelab.topology.workload;

import io.rocelab.fabric.time.Scheduler;
import io.rocelab.nic.AccessFlags;
import io.rocelab.nic.AsyncEventType;
import io.rocelab.nic.MemoryRegion;
import io.rocelab.nic.ProtectionDomain;
import io.rocelab.nic.QueuePair;
import io.rocelab.nic.SoftNic;
import io.rocelab.nic.cm.ConnectionManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the workload keeps on one host's NIC: one PD and one scratch region for all its flows, made
 * on first use, and the receivers of the flows into it (for {@link Workload#setDraining}). Touched
 * only on the NIC's owner thread.
 */
final class HostEnd {
    /** The scratch region's virtual address on every NIC. */
    static final long SCRATCH_VA = 0x10_0000_0000L;

    final String name;
    final SoftNic nic;
    final Scheduler owner;
    final int activeMtu;
    /** How long the scratch region must be: the largest work request of its flows (UD receives: + GRH). */
    int scratchBytes = 1;
    private final long seed;
    private ProtectionDomain pd;
    private ConnectionManager cm;
    private MemoryRegion scratch;
    /** Whether its receivers repost receive work requests. */
    boolean draining = true;
    /** The receive sides of the SEND and UD_SEND flows into it, in the order they were set up. */
    final List<FlowRun> receivers = new ArrayList<>();
    /** What to do on IBV_EVENT_PATH_MIG, per QP with an alternate path; null until the first. */
    private Map<QueuePair, Runnable> pathMigrations;

    HostEnd(String name, SoftNic nic, Scheduler owner, int activeMtu, long seed) {
        this.name = name;
        this.nic = nic;
        this.owner = owner;
        this.activeMtu = activeMtu;
        this.seed = seed;
    }

    /** The NIC's rdma_cm, started on first use (its QP1 then answers REQs). Owner thread. */
    ConnectionManager cm() {
        if (cm == null) {
            cm = ConnectionManager.start(nic, seed);
        }
        return cm;
    }

    ProtectionDomain pd() {
        if (pd == null) {
            pd = nic.allocPd();
            scratch = pd.registerMr(new byte[scratchBytes], SCRATCH_VA, AccessFlags.ALL);
        }
        return pd;
    }

    MemoryRegion scratch() {
        pd();
        return scratch;
    }

    /**
     * Owner thread: calls {@code then} on the owner thread for each {@code IBV_EVENT_PATH_MIG} on
     * {@code qp}, the NIC's asynchronous events being read (its listener set) from the first call.
     */
    void onPathMigration(QueuePair qp, Runnable then) {
        if (pathMigrations == null) {
            pathMigrations = new HashMap<>();
            nic.onAsyncEvent(e -> {
                if (e.type() == AsyncEventType.PATH_MIG && e.qp() != null) {
                    Runnable r = pathMigrations.get(e.qp());
                    if (r != null) {
                        r.run();
                    }
                }
            });
        }
        pathMigrations.put(qp, then);
    }

    /** Owner thread: {@code qp} is going; its events are of no flow. */
    void forgetPathMigration(QueuePair qp) {
        if (pathMigrations != null) {
            pathMigrations.remove(qp);
        }
    }

    /** Owner thread: receivers repost again (posting what they held back), or stop reposting. */
    void setDraining(boolean on) {
        if (draining == on) {
            return;
        }
        draining = on;
        if (on) {
            for (FlowRun r : new ArrayList<>(receivers)) {
                r.resumeReceives();
            }
        }
    }
}
