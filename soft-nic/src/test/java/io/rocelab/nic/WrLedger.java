package io.rocelab.nic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every work request posted in a test and every completion polled: each WR must complete exactly
 * once, a send queue's in the order posted (IBA 10.8.3), and no completion may name a WR nobody
 * posted. Problems are collected, not thrown, so one assertion reports them all.
 */
final class WrLedger {
    /** One posted work request. */
    static final class Posted {
        final QueuePair qp;
        final boolean send;
        final long wrId;
        final String what;
        WorkCompletion wc;
        int order = -1;

        Posted(QueuePair qp, boolean send, long wrId, String what) {
            this.qp = qp;
            this.send = send;
            this.wrId = wrId;
            this.what = what;
        }

        @Override
        public String toString() {
            return what + " #" + wrId + " on " + qp + (wc == null ? " (pending)" : " -> " + wc.status());
        }
    }

    private final Map<Long, Posted> posted = new LinkedHashMap<>();
    private final Map<QueuePair, Integer> completedSends = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private long nextId = 1;

    long nextId() {
        return nextId++;
    }

    /** The id the next WR will get: WRs posted from now on have this id or a higher one. */
    long mark() {
        return nextId;
    }

    Posted send(QueuePair qp, SendWr wr, String what) {
        Posted p = new Posted(qp, true, wr.wrId(), what);
        posted.put(wr.wrId(), p);
        qp.postSend(wr);
        return p;
    }

    Posted recv(QueuePair qp, RecvWr wr, String what) {
        Posted p = new Posted(qp, false, wr.wrId(), what);
        posted.put(wr.wrId(), p);
        qp.postRecv(wr);
        return p;
    }

    /** Takes every completion waiting on {@code cq}. */
    void poll(CompletionQueue cq) {
        List<WorkCompletion> wcs = new ArrayList<>();
        cq.poll(Integer.MAX_VALUE, wcs);
        for (WorkCompletion wc : wcs) {
            Posted p = posted.get(wc.wrId());
            if (p == null) {
                problems.add("a completion for a WR nobody posted: " + wc);
                continue;
            }
            if (p.wc != null) {
                problems.add("completed twice: " + p + ", again " + wc);
                continue;
            }
            if (p.qp.qpn() != wc.qpNum()) {
                problems.add("completed on QP 0x" + Integer.toHexString(wc.qpNum()) + ": " + p);
            }
            p.wc = wc;
            if (p.send) {
                p.order = completedSends.merge(p.qp, 1, Integer::sum) - 1;
            }
        }
    }

    /** Whether every send WR has completed. */
    boolean sendsDone() {
        return posted.values().stream().noneMatch(p -> p.send && p.wc == null);
    }

    /** How many WRs posted on {@code qp} (sends or receives) have not completed. */
    int pending(QueuePair qp, boolean send) {
        return (int) posted.values().stream().filter(p -> p.qp == qp && p.send == send && p.wc == null).count();
    }

    List<Posted> of(QueuePair qp) {
        return posted.values().stream().filter(p -> p.qp == qp).toList();
    }

    /**
     * What is wrong so far, plus, once everything should have completed: WRs still pending, and
     * send completions out of posting order.
     */
    List<String> problems(boolean allShouldBeDone) {
        List<String> out = new ArrayList<>(problems);
        Map<QueuePair, Integer> postedSends = new HashMap<>();
        for (Posted p : posted.values()) {
            if (allShouldBeDone && p.wc == null) {
                out.add("never completed: " + p);
            }
            if (p.send) {
                int index = postedSends.merge(p.qp, 1, Integer::sum) - 1;
                if (p.wc != null && p.order != index) {
                    out.add("completed out of order (" + p.order + "th, posted " + index + "th): " + p);
                }
            }
        }
        return out.size() > 12 ? out.subList(0, 12) : out;
    }
}
