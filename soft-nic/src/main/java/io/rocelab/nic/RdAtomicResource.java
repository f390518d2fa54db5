package io.rocelab.nic;

/**
 * What the responder remembers of one READ or ATOMIC request (IBA 9.7.5.1.4 and o9-21): a
 * duplicate READ is executed again, a duplicate ATOMIC is answered with the saved original value
 * and never executed twice (C9-152). There are max_dest_rd_atomic of these, reused oldest first.
 */
final class RdAtomicResource {
    boolean valid;
    boolean atomic;
    int firstPsn;
    int lastPsn;
    long originalValue;

    boolean holds(int psn) {
        return valid && !io.rocelab.codec.ib.Psn.before(psn, firstPsn) && !io.rocelab.codec.ib.Psn.after(psn, lastPsn);
    }
}
