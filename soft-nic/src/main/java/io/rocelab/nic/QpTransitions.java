package io.rocelab.nic;

import static io.rocelab.nic.QpAttrMask.ACCESS_FLAGS;
import static io.rocelab.nic.QpAttrMask.ALT_PATH;
import static io.rocelab.nic.QpAttrMask.AV;
import static io.rocelab.nic.QpAttrMask.CUR_STATE;
import static io.rocelab.nic.QpAttrMask.DEST_QPN;
import static io.rocelab.nic.QpAttrMask.EN_SQD_ASYNC_NOTIFY;
import static io.rocelab.nic.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static io.rocelab.nic.QpAttrMask.MAX_QP_RD_ATOMIC;
import static io.rocelab.nic.QpAttrMask.MIN_RNR_TIMER;
import static io.rocelab.nic.QpAttrMask.PATH_MIG_STATE;
import static io.rocelab.nic.QpAttrMask.PATH_MTU;
import static io.rocelab.nic.QpAttrMask.PKEY_INDEX;
import static io.rocelab.nic.QpAttrMask.PORT;
import static io.rocelab.nic.QpAttrMask.QKEY;
import static io.rocelab.nic.QpAttrMask.RETRY_CNT;
import static io.rocelab.nic.QpAttrMask.RNR_RETRY;
import static io.rocelab.nic.QpAttrMask.RQ_PSN;
import static io.rocelab.nic.QpAttrMask.SQ_PSN;
import static io.rocelab.nic.QpAttrMask.STATE;
import static io.rocelab.nic.QpAttrMask.TIMEOUT;
import static io.rocelab.nic.QpState.ERR;
import static io.rocelab.nic.QpState.INIT;
import static io.rocelab.nic.QpState.RESET;
import static io.rocelab.nic.QpState.RTR;
import static io.rocelab.nic.QpState.RTS;
import static io.rocelab.nic.QpState.SQD;
import static io.rocelab.nic.QpState.SQE;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The modify-QP transition table of IBA 11.2.5.2 (Table 91 ff.), in the shape of the kernel's
 * {@code qp_state_table}: for each (from, to) and QP type, which attributes are required and which
 * are optional. Any other attribute, or a missing required one, makes the call fail (verbs: EINVAL),
 * and a transition not listed is illegal (C11-?? "modify QP shall fail").
 */
final class QpTransitions {
    /** Required and optional attributes of one transition for one QP type. */
    record Rule(Set<QpAttrMask> required, Set<QpAttrMask> optional) {
    }

    private static final Map<QpState, Map<QpState, Map<QpType, Rule>>> TABLE = new EnumMap<>(QpState.class);

    static {
        for (QpState from : QpState.values()) {
            // Any state -> RESET and -> ERR need nothing (IBA 10.3.1.x).
            allTypes(from, RESET, set(), set());
            allTypes(from, ERR, set(), set());
        }
        rule(RESET, INIT, QpType.RC, set(PKEY_INDEX, PORT, ACCESS_FLAGS), set());
        rule(RESET, INIT, QpType.UC, set(PKEY_INDEX, PORT, ACCESS_FLAGS), set());
        rule(RESET, INIT, QpType.UD, set(PKEY_INDEX, PORT, QKEY), set());
        rule(INIT, INIT, QpType.RC, set(), set(PKEY_INDEX, PORT, ACCESS_FLAGS));
        rule(INIT, INIT, QpType.UC, set(), set(PKEY_INDEX, PORT, ACCESS_FLAGS));
        rule(INIT, INIT, QpType.UD, set(), set(PKEY_INDEX, PORT, QKEY));
        rule(INIT, RTR, QpType.RC, set(AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER),
                set(PKEY_INDEX, ACCESS_FLAGS, ALT_PATH));
        rule(INIT, RTR, QpType.UC, set(AV, PATH_MTU, DEST_QPN, RQ_PSN), set(PKEY_INDEX, ACCESS_FLAGS, ALT_PATH));
        rule(INIT, RTR, QpType.UD, set(), set(PKEY_INDEX, QKEY));
        rule(RTR, RTS, QpType.RC, set(SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC),
                set(CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER, ALT_PATH, PATH_MIG_STATE));
        rule(RTR, RTS, QpType.UC, set(SQ_PSN), set(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE));
        rule(RTR, RTS, QpType.UD, set(SQ_PSN), set(CUR_STATE, QKEY));
        rule(RTS, RTS, QpType.RC, set(), set(CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER, ALT_PATH, PATH_MIG_STATE));
        rule(RTS, RTS, QpType.UC, set(), set(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE));
        rule(RTS, RTS, QpType.UD, set(), set(CUR_STATE, QKEY));
        allTypes(RTS, SQD, set(), set(EN_SQD_ASYNC_NOTIFY));
        rule(SQD, RTS, QpType.RC, set(), set(CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER, ALT_PATH, PATH_MIG_STATE));
        rule(SQD, RTS, QpType.UC, set(), set(CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE));
        rule(SQD, RTS, QpType.UD, set(), set(CUR_STATE, QKEY));
        rule(SQD, SQD, QpType.RC, set(), set(PKEY_INDEX, AV, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC,
                MAX_DEST_RD_ATOMIC, CUR_STATE, ACCESS_FLAGS, MIN_RNR_TIMER, ALT_PATH, PATH_MIG_STATE));
        rule(SQD, SQD, QpType.UC, set(), set(PKEY_INDEX, AV, CUR_STATE, ACCESS_FLAGS, ALT_PATH, PATH_MIG_STATE));
        rule(SQD, SQD, QpType.UD, set(), set(PKEY_INDEX, QKEY));
        // SQE exists only for unreliable services (IBA 10.3.1.6): RC goes to ERR instead.
        rule(SQE, RTS, QpType.UC, set(), set(CUR_STATE, ACCESS_FLAGS));
        rule(SQE, RTS, QpType.UD, set(), set(CUR_STATE, QKEY));
    }

    private QpTransitions() {
    }

    /**
     * Checks a modify-QP call.
     *
     * @return the target state
     * @throws IllegalArgumentException naming the illegal transition or the missing / extra attributes
     */
    static QpState check(QpType type, QpState current, Set<QpAttrMask> given, QpState requested) {
        QpState to = given.contains(STATE) ? requested : current;
        Map<QpState, Map<QpType, Rule>> row = TABLE.get(current);
        Rule r = row == null || row.get(to) == null ? null : row.get(to).get(type);
        if (r == null) {
            throw new IllegalArgumentException("illegal QP transition for " + type + ": " + current + " -> " + to);
        }
        EnumSet<QpAttrMask> attrs = given.isEmpty() ? EnumSet.noneOf(QpAttrMask.class) : EnumSet.copyOf(given);
        attrs.remove(STATE);
        EnumSet<QpAttrMask> missing = EnumSet.copyOf(r.required());
        missing.removeAll(attrs);
        missing.remove(STATE);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(type + " " + current + " -> " + to + " requires " + missing);
        }
        attrs.removeAll(r.required());
        attrs.removeAll(r.optional());
        if (!attrs.isEmpty()) {
            throw new IllegalArgumentException(type + " " + current + " -> " + to + " does not accept " + attrs);
        }
        return to;
    }

    private static void allTypes(QpState from, QpState to, Set<QpAttrMask> req, Set<QpAttrMask> opt) {
        for (QpType t : QpType.values()) {
            rule(from, to, t, req, opt);
        }
    }

    private static void rule(QpState from, QpState to, QpType type, Set<QpAttrMask> req, Set<QpAttrMask> opt) {
        TABLE.computeIfAbsent(from, k -> new EnumMap<>(QpState.class))
                .computeIfAbsent(to, k -> new EnumMap<>(QpType.class))
                .put(type, new Rule(req, opt));
    }

    private static Set<QpAttrMask> set(QpAttrMask... m) {
        EnumSet<QpAttrMask> s = EnumSet.noneOf(QpAttrMask.class);
        for (QpAttrMask x : m) {
            s.add(x);
        }
        return s;
    }
}
