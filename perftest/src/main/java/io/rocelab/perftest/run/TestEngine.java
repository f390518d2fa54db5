package io.rocelab.perftest.run;

import io.rocelab.perftest.cli.PerftestOptions;
import io.rocelab.perftest.oob.KeyRecord;
import io.rocelab.perftest.oob.OobLink;
import io.rocelab.perftest.report.BwMeasurement;
import io.rocelab.perftest.report.LatMeasurement;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The data path of a perftest run: everything that needs a NIC. {@link PerftestSession} does the
 * rest — the out-of-band exchange, its order for each tool, and all the output — and calls these
 * methods in this order: {@link #open}, {@link #createQps}, {@link #connect}, then one of the run
 * methods per message size, then {@link #close}.
 *
 * <p>The run methods are called on the sides perftest runs traffic on: the client of one-way
 * tests, both sides of bidirectional bandwidth tests, both sides of send bandwidth tests (the
 * server measures what it receives), both sides of write and send latency tests (a ping-pong),
 * and the client of read and atomic latency tests.
 */
public interface TestEngine extends AutoCloseable {

    /** Opens the device named by {@code -d} (or the first one) and its port {@code -i}. */
    DeviceInfo open(PerftestOptions options) throws Exception;

    /**
     * Creates the PD, buffers, memory regions, CQs and QPs (brought to INIT), and returns one key
     * record per QP for the peer: QPN, a random 24-bit PSN, the buffer's rkey and address, the GID.
     */
    List<KeyRecord> createQps(RunContext context) throws Exception;

    /**
     * Brings each QP to RTR and RTS towards the peer's record of the same index; QPs rdma_cm
     * connected ({@link #connectQpsRdmaCm}) only take the peer's keys.
     */
    void connect(List<KeyRecord> remote) throws Exception;

    /**
     * {@code -R}: connects perftest's exchange QP through rdma_cm (the client to the host and port
     * of the options, the server accepting the first request on its port) and returns the link the
     * exchange then runs over. Called after {@link #open}.
     *
     * @param listening the server runs it once its listener takes connection requests (perftest's
     *                  "Waiting for client" goes out then, so a client started on it is not refused)
     */
    default OobLink connectRdmaCm(PerftestOptions options, Duration timeout, Runnable listening) throws Exception {
        throw new UnsupportedOperationException("this engine does not connect through rdma_cm (-R)");
    }

    /** {@code -R}: connects the QPs {@link #createQps} made through rdma_cm, one connection each. */
    default void connectQpsRdmaCm() throws Exception {
        throw new UnsupportedOperationException("this engine does not connect through rdma_cm (-R)");
    }

    /**
     * {@code -R}: disconnects as perftest's teardown does, after the last exchange, waiting a
     * little for the peer's side of it.
     */
    default void disconnectRdmaCm() throws Exception {
    }

    /**
     * {@code -W}: a counter of the open device's port by its name under the port's sysfs directory
     * ({@code hw_counters/sent_pkts}), or empty if the device has no such counter.
     */
    default OptionalLong portCounter(String name) {
        return OptionalLong.empty();
    }

    /** One bandwidth measurement of the given size (an iteration or {@code -D} run). */
    BwMeasurement runBandwidth(long size) throws Exception;

    /** One latency measurement of the given size: the post tick of every iteration. */
    LatMeasurement runLatency(long size) throws Exception;

    /** One {@code -D} latency run of the given size. */
    LatDuration runLatencyForDuration(long size) throws Exception;

    /**
     * {@code --run_infinitely}: runs until interrupted, handing over one measurement per
     * {@code -D} period.
     */
    void runInfinitely(long size, Consumer<BwMeasurement> eachPeriod) throws Exception;

    /** Releases everything {@link #createQps} made. */
    @Override
    void close();
}
