package io.rocelab.nic;

/**
 * What the responder remembers of one READ, ATOMIC, ATOMIC WRITE or FLUSH request (IBA 9.7.5.1.4,
 * o9-21 and Annex A19): a duplicate READ is executed again, a duplicate ATOMIC is answered with the
 * saved original value and never executed twice (C9-152), a duplicate ATOMIC WRITE or FLUSH is
 * acknowledged again and not executed (oA19-14, oA19-15). There are max_dest_rd_atomic of these,
 * reused oldest first.
 */
final class RdAtomicResource {
    /** The request a resource holds (rxe's {@code res->type}). */
    enum Kind {
        READ, ATOMIC, ATOMIC_WRITE, FLUSH
    }

    boolean valid;
    Kind kind;
    int firstPsn;
    int lastPsn;
    long originalValue;

    boolean holds(int psn) {
        return valid && !io.rocelab.codec.ib.Psn.before(psn, firstPsn) && !io.rocelab.codec.ib.Psn.after(psn, lastPsn);
    }
}
