package io.rocelab.topology.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * One flow: messages of one verb from a source host to a destination host over {@code qps} QPs,
 * {@code window} work requests outstanding per QP, posted from CQ events on the source NIC's owner
 * thread (no wall clock, no parking). Times are nanoseconds from the start of the {@link Workload}.
 *
 * <ul>
 *   <li>{@code messages > 0}: the flow ends when that many messages completed; its FCT is the last
 *       completion minus its start.</li>
 *   <li>{@code durationNanos > 0}: it stops posting at start + duration; outstanding messages still
 *       complete.</li>
 *   <li>Neither: it runs until {@code stopNanos}, {@link Workload#stopFlow} or the end of the run.</li>
 *   <li>{@code startNanos == Long.MAX_VALUE}: it waits for {@link Workload#startFlow} (a timeline's
 *       {@code FlowControl}).</li>
 * </ul>
 *
 * <p>A message longer than the largest work request the engine posts (its NIC's scratch region,
 * {@link Workload#MAX_WR_BYTES}; for UD, the path MTU) is posted as several work requests, and
 * counts as one message when the last of them completes. {@code window} counts work requests.
 *
 * @param name              unique name of the flow
 * @param source            the host that posts (for READ: that reads, the data flowing to it)
 * @param destination       the other host
 * @param verb              what the messages are
 * @param size              message sizes, drawn per message from the flow's own seeded generator
 * @param messages          messages to complete, 0 for no bound
 * @param durationNanos     how long it posts, 0 for no bound
 * @param qps               QPs it spreads its messages over (UD: always one), 1..1024
 * @param window            work requests outstanding per QP, 1..1024
 * @param startNanos        when it starts, {@code Long.MAX_VALUE} to wait for {@link Workload#startFlow}
 * @param stopNanos         when it stops posting at the latest, {@code Long.MAX_VALUE} for never
 * @param rateBitsPerSecond the flow's rate limit ({@code QueuePair.setRateLimit}) split evenly over
 *                          its QPs, 0 for none
 * @param dscp              the DSCP of its packets (its QPs' traffic class is {@code dscp << 2}, ECT(0)
 *                          added by a NIC that runs DCQCN), or -1 for the fabric's RoCE DSCP
 *                          (the topology's QoS profile's, 0 without one)
 * @param ackTimeout        RC local ACK timeout, IBA exponent (4.096 us x 2^n), 0..31; 14 as perftest
 * @param retryCount        RC transport retries, 0..7
 * @param rnrRetry          RC RNR retries, 0..7 (7: forever)
 * @param onDemand          whether its QPs are created when it starts and destroyed when it ends
 *                          (short flows of a long run, {@link PoissonFlows}' flows); otherwise they
 *                          are created by {@link Workload#start} and kept until the workload closes
 * @param reconnectNanos    0: the QPs are connected out of band and a QP in error ends the flow
 *                          ({@code FAILED}). Above 0 (RC verbs): the QPs are connected through
 *                          rdma_cm (REQ, REP, RTU on QP1 across the fabric, the ACK timeout set as
 *                          {@code rdma_set_ack_timeout} does), and after an error completion
 *                          ({@code IBV_WC_RETRY_EXC_ERR}, say) the client does what storage
 *                          clients do: it moves its QPs to the error state, waits this long, and
 *                          connects new QPs through rdma_cm, again after this long if that fails,
 *                          then resumes with the messages that had not completed
 * @param altPath           null, or the alternate path (IBA 17.2.8) its RC QPs load and arm once
 *                          connected, on both sides, as a CM's LAP or an application does: a
 *                          failure of the primary path then makes them migrate ({@link AltPath})
 * @param verify            whether the bytes are checked: each work request's data is a pattern of
 *                          the flow's seed, its QP and its sequence number, compared with what the
 *                          other side's memory holds once it completes ({@link FlowResult#verifiedBytes()})
 * @param roceV1            whether its QPs' paths start at the source's IPv4-mapped RoCEv1 GID, so
 *                          they send RoCEv1 (EtherType 0x8915, IBA Annex A16; both NICs must list
 *                          RoCEv1 GIDs, {@code Host.roceV1}); else its RoCEv2 GID, as rxe's QPs
 */
public record Flow(String name, String source, String destination, Verb verb, SizeDistribution size,
                   long messages, long durationNanos, int qps, int window, long startNanos, long stopNanos,
                   long rateBitsPerSecond, int dscp, int ackTimeout, int retryCount, int rnrRetry,
                   boolean onDemand, long reconnectNanos, AltPath altPath, boolean verify, boolean roceV1) {
    /** Most QPs or outstanding work requests a flow may ask for (a QP's send queue holds 1024). */
    public static final int MAX_QPS = 1024;
    public static final int MAX_WINDOW = 1024;

    /** @throws InvalidFlowException with one line per bad field */
    public Flow {
        List<String> problems = problems(name, source, destination, verb, size, messages, durationNanos, qps, window,
            startNanos, stopNanos, rateBitsPerSecond, dscp, ackTimeout, retryCount, rnrRetry, reconnectNanos);
        problems.addAll(pathAndVerifyProblems(name, verb, reconnectNanos, altPath, verify, qps, window, size));
        if (roceV1 && reconnectNanos > 0) {
            problems.add("flow '" + name + "': RoCEv1 and reconnect do not go together: rdma_cm connects over RoCEv2"
                + " (its default RoCE mode)");
        }
        if (roceV1 && altPath != null) {
            problems.add("flow '" + name + "': RoCEv1 with an alternate path is not supported: the alternate path"
                + " is RoCEv2");
        }
        if (!problems.isEmpty()) {
            throw new InvalidFlowException(problems);
        }
    }

    /** A flow over RoCEv2, as rxe's QPs. */
    public Flow(String name, String source, String destination, Verb verb, SizeDistribution size,
                long messages, long durationNanos, int qps, int window, long startNanos, long stopNanos,
                long rateBitsPerSecond, int dscp, int ackTimeout, int retryCount, int rnrRetry,
                boolean onDemand, long reconnectNanos, AltPath altPath, boolean verify) {
        this(name, source, destination, verb, size, messages, durationNanos, qps, window, startNanos, stopNanos,
            rateBitsPerSecond, dscp, ackTimeout, retryCount, rnrRetry, onDemand, reconnectNanos, altPath, verify, false);
    }

    /**
     * @return a builder with perftest-like defaults: WRITE, 65536 B messages, no bound, 1 QP, window
     *         8 (perftest's tx depth 128 over 16 for 64 KB), start 0, no stop, no rate cap, the
     *         fabric's RoCE DSCP, ACK timeout 14, 7 retries, 7 RNR retries
     */
    public static Builder builder(String name, String source, String destination) {
        return new Builder(name, source, destination);
    }

    /** @return whether the flow ends by itself (a message count, a duration or a stop time) */
    public boolean bounded() {
        return messages > 0 || durationNanos > 0 || stopNanos != Long.MAX_VALUE;
    }

    /** @return the same flow with another start time ({@code Long.MAX_VALUE}: wait for {@link Workload#startFlow}) */
    public Flow withStartNanos(long nanos) {
        return new Flow(name, source, destination, verb, size, messages, durationNanos, qps, window, nanos, stopNanos,
            rateBitsPerSecond, dscp, ackTimeout, retryCount, rnrRetry, onDemand, reconnectNanos, altPath, verify,
            roceV1);
    }

    /** @return whether its QPs are connected through rdma_cm and reconnected after an error */
    public boolean reconnects() {
        return reconnectNanos > 0;
    }

    @Override
    public String toString() {
        return "flow " + name + ": " + source + " -> " + destination + " " + verb + " " + size.describe()
            + (messages > 0 ? " x" + messages : "") + (durationNanos > 0 ? " for " + durationNanos + " ns" : "")
            + ", " + qps + " QP" + (qps == 1 ? "" : "s") + " x " + window
            + (startNanos == Long.MAX_VALUE ? ", waits for its start" : startNanos > 0 ? ", at " + startNanos + " ns" : "")
            + (rateBitsPerSecond > 0 ? ", capped at " + rateBitsPerSecond + " b/s" : "")
            + (reconnectNanos > 0 ? ", reconnects after " + reconnectNanos + " ns" : "")
            + (altPath != null ? ", " + altPath : "") + (verify ? ", verified" : "") + (roceV1 ? ", RoCEv1" : "");
    }

    /** The most memory a verified flow holds on each side: a slot per outstanding work request. */
    public static final long MAX_VERIFY_BYTES = 256L << 20;

    private static List<String> pathAndVerifyProblems(String name, Verb verb, long reconnectNanos, AltPath altPath,
                                                      boolean verify, int qps, int window, SizeDistribution size) {
        List<String> p = new ArrayList<>();
        String f = "flow '" + name + "': ";
        if (altPath != null) {
            if (verb == Verb.UD_SEND) {
                p.add(f + "an alternate path is for RC QPs (IBA 17.2.8), not UD_SEND");
            } else if (reconnectNanos > 0) {
                p.add(f + "an alternate path and reconnect do not go together: its rdma_cm connects without one"
                    + " (no LAP)");
            }
        }
        if (verify) {
            if (verb == Verb.UD_SEND) {
                p.add(f + "verify checks RC memory (WRITE, READ, SEND): UD datagrams may be lost, not for UD_SEND");
            } else if (verb == Verb.SEND && reconnectNanos > 0) {
                p.add(f + "verify of SEND counts the messages each QP receives, which reconnecting QPs restart:"
                    + " not with reconnect");
            } else if (size != null && qps >= 1 && window >= 1) {
                long wr = Math.min(Workload.MAX_WR_BYTES, size.maxBytes());
                long need = (long) qps * Math.min(MAX_WINDOW, 2L * window) * wr;
                if (need > MAX_VERIFY_BYTES) {
                    p.add(f + "verify holds a slot per outstanding work request on each side: " + need
                        + " bytes for qps x window x message, more than " + MAX_VERIFY_BYTES);
                }
            }
        }
        return p;
    }

    private static List<String> problems(String name, String source, String destination, Verb verb,
                                         SizeDistribution size, long messages, long durationNanos, int qps, int window,
                                         long startNanos, long stopNanos, long rate, int dscp, int ackTimeout,
                                         int retryCount, int rnrRetry, long reconnectNanos) {
        List<String> p = new ArrayList<>();
        String f = "flow '" + name + "': ";
        if (name == null || name.isBlank()) {
            p.add("flow: a name is needed, not '" + name + "'");
        }
        if (source == null || source.isBlank()) {
            p.add(f + "source must name a host");
        }
        if (destination == null || destination.isBlank()) {
            p.add(f + "destination must name a host");
        } else if (destination.equals(source)) {
            p.add(f + "source and destination are the same host '" + source + "'");
        }
        if (verb == null) {
            p.add(f + "verb must be one of WRITE, READ, SEND, UD_SEND");
        }
        if (size == null) {
            p.add(f + "size must be given");
        }
        if (messages < 0) {
            p.add(f + "messages must be >= 0 (0: no bound), not " + messages);
        }
        if (durationNanos < 0) {
            p.add(f + "duration must be >= 0 ns (0: no bound), not " + durationNanos);
        }
        if (qps < 1 || qps > MAX_QPS) {
            p.add(f + "qps must be 1.." + MAX_QPS + ", not " + qps);
        } else if (verb == Verb.UD_SEND && qps != 1) {
            p.add(f + "qps must be 1 for UD_SEND (one UD QP each side), not " + qps);
        }
        if (window < 1 || window > MAX_WINDOW) {
            p.add(f + "window must be 1.." + MAX_WINDOW + " work requests per QP, not " + window);
        }
        if (startNanos < 0) {
            p.add(f + "start must be >= 0 ns, not " + startNanos);
        }
        if (stopNanos < 0 || stopNanos != Long.MAX_VALUE && startNanos != Long.MAX_VALUE && stopNanos <= startNanos) {
            p.add(f + "stop must be after the start (" + startNanos + " ns), not " + stopNanos);
        }
        if (rate < 0) {
            p.add(f + "rate must be >= 0 b/s (0: no cap), not " + rate);
        } else if (rate > 0 && verb == Verb.UD_SEND) {
            p.add(f + "rate caps RC QPs (QueuePair.setRateLimit paces RC and UC QPs): not for UD_SEND");
        }
        if (dscp < -1 || dscp > 63) {
            p.add(f + "dscp must be 0..63, or -1 for the fabric's RoCE DSCP, not " + dscp);
        }
        if (ackTimeout < 0 || ackTimeout > 31) {
            p.add(f + "ack timeout must be 0..31 (IBA exponent), not " + ackTimeout);
        }
        if (retryCount < 0 || retryCount > 7) {
            p.add(f + "retry count must be 0..7, not " + retryCount);
        }
        if (rnrRetry < 0 || rnrRetry > 7) {
            p.add(f + "rnr retry must be 0..7 (7: forever), not " + rnrRetry);
        }
        if (reconnectNanos < 0) {
            p.add(f + "reconnect delay must be >= 0 ns (0: no reconnection), not " + reconnectNanos);
        } else if (reconnectNanos > 0 && verb == Verb.UD_SEND) {
            p.add(f + "reconnect is for RC flows (connected through rdma_cm): not for UD_SEND");
        } else if (reconnectNanos > 0 && ackTimeout == 0) {
            p.add(f + "reconnect needs an ACK timeout of 1..31 (rdma_set_ack_timeout), not 0");
        }
        return p;
    }

    /** Fills in a {@link Flow}; {@link #build()} checks every field at once. */
    public static final class Builder {
        private final String name;
        private final String source;
        private final String destination;
        private Verb verb = Verb.WRITE;
        private SizeDistribution size = SizeDistribution.fixed(65_536);
        private long messages;
        private long durationNanos;
        private int qps = 1;
        private int window = 8;
        private long startNanos;
        private long stopNanos = Long.MAX_VALUE;
        private long rate;
        private int dscp = -1;
        private int ackTimeout = 14;
        private int retryCount = 7;
        private int rnrRetry = 7;
        private boolean onDemand;
        private long reconnectNanos;
        private AltPath altPath;
        private boolean verify;
        private boolean roceV1;
        private String sizeProblem;

        private Builder(String name, String source, String destination) {
            this.name = name;
            this.source = source;
            this.destination = destination;
        }

        public Builder verb(Verb v) {
            verb = v;
            return this;
        }

        public Builder size(SizeDistribution sizes) {
            size = sizes;
            return this;
        }

        /** Every message {@code bytes} long. */
        public Builder messageBytes(long bytes) {
            if (bytes >= 1) {
                size = SizeDistribution.fixed(bytes);
                sizeProblem = null;
            } else {
                size = null;
                sizeProblem = "message size must be >= 1 byte, not " + bytes;
            }
            return this;
        }

        public Builder messages(long n) {
            messages = n;
            return this;
        }

        public Builder durationNanos(long nanos) {
            durationNanos = nanos;
            return this;
        }

        public Builder qps(int n) {
            qps = n;
            return this;
        }

        public Builder window(int workRequests) {
            window = workRequests;
            return this;
        }

        public Builder startNanos(long nanos) {
            startNanos = nanos;
            return this;
        }

        /** The flow waits for {@link Workload#startFlow} (a timeline event). */
        public Builder startOnDemand() {
            startNanos = Long.MAX_VALUE;
            return this;
        }

        public Builder stopNanos(long nanos) {
            stopNanos = nanos;
            return this;
        }

        public Builder rateBitsPerSecond(long bitsPerSecond) {
            rate = bitsPerSecond;
            return this;
        }

        public Builder rateGbps(double gbps) {
            rate = Math.round(gbps * 1e9);
            return this;
        }

        public Builder dscp(int value) {
            dscp = value;
            return this;
        }

        public Builder ackTimeout(int exponent) {
            ackTimeout = exponent;
            return this;
        }

        public Builder retryCount(int n) {
            retryCount = n;
            return this;
        }

        public Builder rnrRetry(int n) {
            rnrRetry = n;
            return this;
        }

        /** QPs created when the flow starts and destroyed when it ends. */
        public Builder onDemand(boolean value) {
            onDemand = value;
            return this;
        }

        /** Connects through rdma_cm and, after an error completion, reconnects this long after ({@link Flow}). */
        public Builder reconnectAfterNanos(long nanos) {
            reconnectNanos = nanos;
            return this;
        }

        /** The alternate path its QPs load and arm ({@link AltPath}); null for none. */
        public Builder altPath(AltPath path) {
            altPath = path;
            return this;
        }

        /** Whether the bytes are checked ({@link Flow}). */
        public Builder verify(boolean on) {
            verify = on;
            return this;
        }

        /** Whether its QPs send RoCEv1 ({@link Flow#roceV1()}). */
        public Builder roceV1(boolean on) {
            roceV1 = on;
            return this;
        }

        /** @throws InvalidFlowException with one line per bad field */
        public Flow build() {
            if (sizeProblem != null && size == null) {
                List<String> p = new ArrayList<>();
                p.add("flow '" + name + "': " + sizeProblem);
                try {
                    new Flow(name, source, destination, verb, SizeDistribution.fixed(1), messages, durationNanos, qps,
                        window, startNanos, stopNanos, rate, dscp, ackTimeout, retryCount, rnrRetry, onDemand, reconnectNanos,
                        altPath, verify, roceV1);
                } catch (InvalidFlowException e) {
                    p.addAll(e.problems());
                }
                throw new InvalidFlowException(p);
            }
            return new Flow(name, source, destination, verb, size, messages, durationNanos, qps, window, startNanos,
                stopNanos, rate, dscp, ackTimeout, retryCount, rnrRetry, onDemand, reconnectNanos, altPath, verify,
                roceV1);
        }
    }
}
