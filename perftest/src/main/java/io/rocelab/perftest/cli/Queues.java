package io.rocelab.perftest.cli;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.TestKind;

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
 */
public record Queues(ConnectionType connection, int txDepth, int rxDepth, int outReads, AtomicType atomicType,
                     int inlineSize, int qpTimeout, boolean qpTimeoutRequested, int postList, int cqModeration,
                     boolean cqModerationRequested, boolean events, int eventVector, boolean oldPostSend,
                     boolean srq) {

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
        }

        Queues build() {
            return new Queues(connection, txDepth, rxDepth, outReads, atomicType, inlineSize, qpTimeout,
                    qpTimeoutRequested, postList, cqModeration, cqModerationRequested, events, eventVector,
                    oldPostSend, srq);
        }
    }
}
