package io.rocelab.perftest;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * One perftest tool: {@code ib_write_bw}, {@code ib_read_lat}, ... Each is a verb measured for
 * bandwidth or latency, and that pair fixes the defaults perftest uses (message size, iterations,
 * queue depths) and which transports the verb can run on.
 */
public enum TestKind {
    WRITE_BW("ib_write_bw", Verb.WRITE, TestType.BW),
    WRITE_LAT("ib_write_lat", Verb.WRITE, TestType.LAT),
    READ_BW("ib_read_bw", Verb.READ, TestType.BW),
    READ_LAT("ib_read_lat", Verb.READ, TestType.LAT),
    SEND_BW("ib_send_bw", Verb.SEND, TestType.BW),
    SEND_LAT("ib_send_lat", Verb.SEND, TestType.LAT),
    ATOMIC_BW("ib_atomic_bw", Verb.ATOMIC, TestType.BW),
    ATOMIC_LAT("ib_atomic_lat", Verb.ATOMIC, TestType.LAT);

    /** perftest's {@code DEF_SIZE_BW}. */
    public static final long DEFAULT_SIZE_BW = 65536;
    /** perftest's {@code DEF_SIZE_LAT}. */
    public static final long DEFAULT_SIZE_LAT = 2;
    /** An atomic operation always moves 8 bytes ({@code DEF_SIZE_ATOMIC}). */
    public static final long ATOMIC_SIZE = 8;
    /** perftest's {@code DEF_ITERS_WB}: only ib_write_bw runs 5000 iterations by default. */
    public static final long DEFAULT_ITERS_WRITE_BW = 5000;
    /** perftest's {@code DEF_ITERS}. */
    public static final long DEFAULT_ITERS = 1000;
    /** perftest's {@code DEF_TX_BW}. */
    public static final int DEFAULT_TX_DEPTH_BW = 128;
    /** perftest's {@code DEF_TX_LAT}. */
    public static final int DEFAULT_TX_DEPTH_LAT = 1;
    /** perftest's {@code DEF_RX_SEND}: receives posted ahead for send tests. */
    public static final int DEFAULT_RX_DEPTH_SEND = 512;
    /** perftest's {@code DEF_RX_RDMA}: RDMA verbs need no receives. */
    public static final int DEFAULT_RX_DEPTH_RDMA = 1;
    /** perftest's {@code DEF_CQ_MOD}: one signalled completion per 100 sends. */
    public static final int DEFAULT_CQ_MOD = 100;

    private final String toolName;
    private final Verb verb;
    private final TestType type;

    TestKind(String toolName, Verb verb, TestType type) {
        this.toolName = toolName;
        this.verb = verb;
        this.type = type;
    }

    /** The command name, as typed by a user of perftest. */
    public String toolName() {
        return toolName;
    }

    public Verb verb() {
        return verb;
    }

    public TestType type() {
        return type;
    }

    public boolean isBandwidth() {
        return type == TestType.BW;
    }

    public boolean isLatency() {
        return type == TestType.LAT;
    }

    /** The message size used without {@code -s}. */
    public long defaultSize() {
        if (verb == Verb.ATOMIC) {
            return ATOMIC_SIZE;
        }
        return type == TestType.BW ? DEFAULT_SIZE_BW : DEFAULT_SIZE_LAT;
    }

    /** The iteration count used without {@code -n}. */
    public long defaultIterations() {
        return this == WRITE_BW ? DEFAULT_ITERS_WRITE_BW : DEFAULT_ITERS;
    }

    public int defaultTxDepth() {
        return type == TestType.BW ? DEFAULT_TX_DEPTH_BW : DEFAULT_TX_DEPTH_LAT;
    }

    public int defaultRxDepth() {
        return verb == Verb.SEND ? DEFAULT_RX_DEPTH_SEND : DEFAULT_RX_DEPTH_RDMA;
    }

    /**
     * The transports the verb can use: RDMA read and atomics need RC's responder resources; write
     * has no UD form (UD carries only sends); send runs on all three.
     */
    public Set<ConnectionType> legalConnections() {
        switch (verb) {
            case SEND:
                return EnumSet.allOf(ConnectionType.class);
            case WRITE:
                return EnumSet.of(ConnectionType.RC, ConnectionType.UC);
            default:
                return EnumSet.of(ConnectionType.RC);
        }
    }

    /** The tool of the given command name ({@code "ib_write_bw"}), if it is one of perftest's eight. */
    public static Optional<TestKind> ofToolName(String name) {
        for (TestKind k : values()) {
            if (k.toolName.equals(name)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
