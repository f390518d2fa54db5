package io.rocelab.topology.workload;

import io.rocelab.topology.fabric.Fabric;
import java.util.List;

/**
 * The workload engine: runs {@link Flow}s on a {@link Fabric}'s soft NICs, event-driven, in virtual
 * or real time.
 *
 * <p>How a flow runs: on the owner threads of its source's and destination's NICs (virtual time:
 * the one scheduler; real time: each NIC's event loop), its QPs are created and connected with
 * {@code QueuePair.modify} (RC for WRITE, READ and SEND, one UD QP each side with a Q_Key for
 * UD_SEND); the destination posts receive work requests for SEND and UD_SEND and reposts one from
 * its receive CQ's notification for each it consumed; the source posts its messages from its send
 * CQ's notification, keeping {@link Flow#window()} work requests outstanding per QP. No wall clock,
 * no parking, no polling loop: every step is a CQ event or a timer of the NIC's scheduler.
 *
 * <p>Memory: each NIC has one protection domain and one scratch region for all its flows, sources
 * and sinks alike, as long as the largest work request any of its flows posts (at most
 * {@link #MAX_WR_BYTES}); WRITEs land in the destination's, READs read from it, SENDs are received
 * into it. The bytes are not checked (they overlap); the counts are.
 *
 * <p>Errors: a flow whose QP goes to the error state (retries exhausted, say) stops posting, its
 * work requests complete in error, and it ends {@link FlowResult.Outcome#FAILED} with the count of
 * each status: data for the report, not an exception.
 *
 * <p>Time: every flow time (start, stop, duration) and every result time counts from the moment
 * {@link #start} was called on the fabric's clock; in virtual time on a fresh fabric, that is 0.
 *
 * <p>Determinism: in virtual time, the same topology, flows and seeds give the same results and the
 * same NIC and switch counters, bit for bit. Each flow's sizes come from a generator derived from
 * the seed and the flow's place in the list.
 *
 * <p>Threading: {@link #start}, {@link #results} and {@link #close} from the thread that built the
 * fabric; in virtual time that thread also runs the scheduler ({@code fabric.runFor},
 * {@code fabric.runUntil(workload::finished, ...)}). {@link #startFlow}, {@link #stopFlow} and
 * {@link #setDraining} may be called from any thread, and from a virtual-time event.
 */
public final class Workload implements AutoCloseable {
    /** The largest work request the engine posts: a NIC's scratch region is at most this long. */
    public static final int MAX_WR_BYTES = 256 * 1024;

    private Workload() {
    }

    /**
     * Creates the flows' QPs, CQs and MRs on the fabric's NICs (on their owner threads; on-demand
     * flows' QPs when they start) and schedules each flow's start.
     *
     * @param fabric the running fabric
     * @param flows  the flows, unique names, hosts of the fabric
     * @param seed   the seed of the flows' message sizes
     * @throws IllegalArgumentException for a repeated flow name or a host the fabric does not have
     */
    public static Workload start(Fabric fabric, List<Flow> flows, long seed) {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return the fabric it runs on */
    public Fabric fabric() {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return the flows, in the order given */
    public List<Flow> flows() {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return the clock of the fabric when {@link #start} was called: time 0 of the flows and results */
    public long epochNanos() {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return the live progress of {@code flow} */
    public FlowProgress progress(String flow) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Starts a flow now (one given start {@code Long.MAX_VALUE} waits for this); a flow already started is left alone. */
    public void startFlow(String flow) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Stops posting {@code flow}'s messages; outstanding ones still complete. */
    public void stopFlow(String flow) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * {@code false}: the host's receivers stop reposting receive work requests, so SEND flows to it
     * meet RNR (and retry, up to their {@code rnrRetry}) and UD datagrams to it are dropped once the
     * posted ones are used up; {@code true} (the default): they repost, and the ones held back are
     * posted at once.
     */
    public void setDraining(String host, boolean draining) {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return whether every bounded flow ({@link Flow#bounded()}) has finished */
    public boolean finished() {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return every flow's result, in the order of {@link #flows()} */
    public List<FlowResult> results() {
        throw new UnsupportedOperationException("not yet");
    }

    /** @return the result of one flow */
    public FlowResult result(String flow) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Stops every flow's posting and destroys the QPs it made; the fabric keeps running. */
    @Override
    public void close() {
        throw new UnsupportedOperationException("not yet");
    }
}
