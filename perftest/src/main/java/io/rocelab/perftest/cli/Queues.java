package io.rocelab.perftest.cli;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.TestKind;
import io.rocelab.perftest.Verb;
import java.util.Arrays;

/**
 * The QPs of a perftest run and how work requests are posted to them and completed (the settings
 * of {@link QueueFlags}). Values are the ones the run uses, after perftest's adjustments
 * ({@code force_dependecies}): depths trimmed to the iterations, CQ moderation to the TX depth,
 * the inline size to the transport's maximum.
 *
 * @param connection            {@code -c}: the transport of the QPs (RC, UC or UD)
 * @param txDepth               {@code -t}: send queue depth after perftest's adjustments
 * @param rxDepth               {@code -r}: receive queue depth after perftest's adjustments
 * @param outReads              {@code -o}: outstanding reads/atomics per QP; 0 means the device
 *                              maximum (1 for send and write, which have none)
 * @param atomicType            {@code -A}: the atomic operation of the atomic tests
 * @param inlineSize            {@code -I}: largest message sent inline, or perftest's default for the
 *                              test
 * @param qpTimeout             {@code -u}: the QP's local ACK timeout exponent (4.096 us * 2^n);
 *                              perftest's default is 14
 * @param qpTimeoutRequested    whether {@code -u} was given, rather than the default taken
 * @param postList              {@code -l}: work requests per post call
 * @param cqModeration          {@code -Q} after adjustments: one signalled completion per this many
 *                              sends
 * @param cqModerationRequested true when {@code -Q} was given
 * @param events                {@code -e}: sleep on completion events instead of polling
 * @param eventVector           {@code -X}: completion vector for events; -1 when not given
 * @param oldPostSend           {@code --use_old_post_send}: post with {@code ibv_post_send} rather
 *                              than the extended post API
 * @param srq                   {@code --use-srq}: the QPs share one receive queue (SEND tests only)
 * @param useOoo                {@code --use_ooo}: the QPs place data out of order (perftest's "Use out of
 *                              order data placement"; on rocelab's NIC {@code QpCreateFlag.OOO_DP}, RC only)
 */
public record Queues(ConnectionType connection, int txDepth, int rxDepth, int outReads, AtomicType atomicType,
                     int inlineSize, int qpTimeout, boolean qpTimeoutRequested, int postList, int cqModeration,
                     boolean cqModerationRequested, boolean events, int eventVector, boolean oldPostSend,
                     boolean srq, boolean useOoo) {

    /** The settings without {@code --use_ooo}. */
    public Queues(ConnectionType connection, int txDepth, int rxDepth, int outReads, AtomicType atomicType,
                  int inlineSize, int qpTimeout, boolean qpTimeoutRequested, int postList, int cqModeration,
                  boolean cqModerationRequested, boolean events, int eventVector, boolean oldPostSend, boolean srq) {
        this(connection, txDepth, rxDepth, outReads, atomicType, inlineSize, qpTimeout, qpTimeoutRequested, postList,
                cqModeration, cqModerationRequested, events, eventVector, oldPostSend, srq, false);
    }

    /** perftest's {@code MAX_TX}: the deepest send queue {@code -t} takes. */
    static final int MAX_TX_DEPTH = 15000;
    /** perftest's {@code MAX_RX}: the deepest receive queue {@code -r} takes. */
    static final int MAX_RX_DEPTH = 16384;
    /** perftest's {@code UC_MAX_RX}: the receive depth a UC or UD test's default is capped to. */
    static final int UC_MAX_RX = 16000;
    /** perftest's {@code MAX_CQ_MOD}: the largest {@code -Q}. */
    static final int MAX_CQ_MOD = 1024;
    /** perftest's {@code MAX_INLINE}: the largest {@code -I}. */
    static final int MAX_INLINE = 912;
    /** perftest's {@code MAX_INLINE_UD}: the inline size a UD test is lowered to. */
    static final int MAX_INLINE_UD = 884;
    /** The largest {@code -u}: the ACK timeout exponent is 5 bits (IBA, QP attribute Local ACK Timeout). */
    static final int MAX_QP_TIMEOUT = 31;
    /** The largest completion vector {@code -X} takes. */
    static final int MAX_EQ_NUM = 2048;
    /** Above this message size perftest signals every send unless {@code -Q} was given. */
    static final int CQ_MOD_SIZE_LIMIT = 8192;
    /** perftest's {@code DEF_INLINE_WRITE}: the inline default of ib_write_lat. */
    static final int INLINE_WRITE_LAT = 220;
    /** perftest's {@code DEF_INLINE_SEND_RC_UC}: the inline default of ib_send_lat on RC and UC. */
    static final int INLINE_SEND_LAT = 236;
    /** perftest's {@code DEF_INLINE_SEND_UD}: the inline default of ib_send_lat on UD. */
    static final int INLINE_SEND_LAT_UD = 188;

    /**
     * perftest's inline defaults for a device it recognises ({@code ctx_set_max_inline}): only
     * latency tests inline by default, since inlining a bandwidth test's large messages costs
     * more than it saves.
     */
    static int defaultInline(TestKind kind, ConnectionType connection) {
        if (!kind.isLatency()) {
            return 0;
        }
        switch (kind.verb()) {
            case WRITE:
                return INLINE_WRITE_LAT;
            case SEND:
                return connection == ConnectionType.UD ? INLINE_SEND_LAT_UD : INLINE_SEND_LAT;
            default:
                return 0;
        }
    }

    /** perftest's {@code -c}: the transport named, if the test's verb can use it. */
    static ConnectionType parseConnection(String text, Verb verb) {
        switch (text) {
            case "RC":
                return ConnectionType.RC;
            case "UC":
                if (verb.usesOutstandingReads()) {
                    throw new OptionException(" UC connection not possible in READ/ATOMIC verbs");
                }
                return ConnectionType.UC;
            case "UD":
                if (verb != Verb.SEND) {
                    throw new OptionException(" UD connection only possible in SEND verb");
                }
                return ConnectionType.UD;
            case "XRC":
            case "DC":
            case "SRD":
            case "RawEth":
                throw new OptionException(" " + text + " connection is not supported by rocelab's NIC."
                        + " Please choose from {RC,UC,UD}");
            default:
                throw new OptionException(" Invalid Connection type. Please choose from {RC,UC,UD}");
        }
    }

    /** perftest's {@code -A}: the atomic operation named. */
    static AtomicType parseAtomicType(String text) {
        for (AtomicType t : AtomicType.values()) {
            if (t.name().equals(text)) {
                return t;
            }
        }
        throw new OptionException(" Invalid Atomic type! please choose from "
                + Arrays.toString(AtomicType.values()).replace(" ", "").replace('[', '{').replace(']', '}'));
    }

    /** The settings while perftest's rules fill them in; starts at the tool's defaults. */
    static final class Builder {
        ConnectionType connection = ConnectionType.RC;
        int txDepth;
        int rxDepth;
        int outReads;
        AtomicType atomicType = AtomicType.FETCH_AND_ADD;
        int inlineSize = 0;
        int qpTimeout = 14;
        boolean qpTimeoutRequested = false;
        int postList = 1;
        int cqModeration = TestKind.DEFAULT_CQ_MOD;
        boolean cqModerationRequested = false;
        boolean events = false;
        int eventVector = -1;
        boolean oldPostSend = false;
        boolean srq = false;
        boolean useOoo = false;

        Builder(TestKind kind) {
            txDepth = kind.defaultTxDepth();
            rxDepth = kind.defaultRxDepth();
            outReads = kind.verb().usesOutstandingReads() ? 0 : 1;
        }

        Builder(Queues q) {
            connection = q.connection;
            txDepth = q.txDepth;
            rxDepth = q.rxDepth;
            outReads = q.outReads;
            atomicType = q.atomicType;
            inlineSize = q.inlineSize;
            qpTimeout = q.qpTimeout;
            qpTimeoutRequested = q.qpTimeoutRequested;
            postList = q.postList;
            cqModeration = q.cqModeration;
            cqModerationRequested = q.cqModerationRequested;
            events = q.events;
            eventVector = q.eventVector;
            oldPostSend = q.oldPostSend;
            srq = q.srq;
            useOoo = q.useOoo;
        }

        Queues build() {
            return new Queues(connection, txDepth, rxDepth, outReads, atomicType, inlineSize, qpTimeout,
                    qpTimeoutRequested, postList, cqModeration, cqModerationRequested, events, eventVector,
                    oldPostSend, srq, useOoo);
        }
    }
}
