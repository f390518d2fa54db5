package io.rocelab.nic;

import io.rocelab.codec.header.Feth;
import io.rocelab.codec.header.Reth;
import io.rocelab.codec.ib.ExtHeader;
import io.rocelab.codec.ib.Opcode;

/**
 * The responder's side of the memory placement extensions (IBA 1.5 Annex A19), as rxe executes
 * them ({@code rxe_resp.c}: {@code atomic_write_reply}, {@code process_flush}):
 * <ul>
 * <li>ATOMIC WRITE (0x1D): RETH and 8 bytes of payload, written at once at an 8-byte aligned
 *     address (oA19-28); the QP and the region need remote write.</li>
 * <li>FLUSH (0x1C): FETH and RETH; makes what earlier requests placed globally visible or
 *     persistent (the FETH's placement type, A19.4.1.1), for a range of the region or the whole
 *     region (its selectivity level, A19.4.1.2). The QP and the region need
 *     {@link AccessFlags#FLUSH_GLOBAL} / {@link AccessFlags#FLUSH_PERSISTENT} for the types asked.
 *     A soft NIC's regions are the JVM's memory, written by the NIC's thread before the response
 *     leaves, so global visibility needs nothing more; no region can be persistent
 *     ({@link AccessFlags#validateRegion}), so a persistent FLUSH is a remote access error.</li>
 * </ul>
 * Both are answered with a zero-length RDMA READ RESPONSE ONLY and take a responder resource, so
 * that a duplicate is acknowledged again and not executed again (oA19-14, oA19-15). A malformed one
 * (a length other than 8, a misaligned address, an unknown placement type or level) is an invalid
 * request; a bad R_Key, range or right a remote access error (class C, IBA 9.9.3.1).
 */
final class MemoryPlacement {
    /** FETH placement types (A19.4.1.1; {@code enum ib_placement_type}). */
    static final int PLACEMENT_GLOBAL = SendWr.FLUSH_GLOBAL;
    static final int PLACEMENT_PERSISTENT = SendWr.FLUSH_PERSISTENT;
    /** FETH selectivity levels (A19.4.1.2; {@code enum ib_selectivity_level}). */
    static final int SELECT_RANGE = SendWr.FLUSH_RANGE;
    static final int SELECT_REGION = SendWr.FLUSH_MR;
    /** An ATOMIC WRITE carries exactly this many bytes (oA19-28). */
    static final int ATOMIC_WRITE_LENGTH = 8;

    private MemoryPlacement() {
    }

    /** Whether {@code p} is an ATOMIC WRITE or a FLUSH. */
    static boolean handles(RxPacket p) {
        return p.is(Opcode.ATOMIC_WRITE) || p.is(Opcode.FLUSH);
    }

    static RdAtomicResource.Kind kind(RxPacket p) {
        return p.is(Opcode.FLUSH) ? RdAtomicResource.Kind.FLUSH : RdAtomicResource.Kind.ATOMIC_WRITE;
    }

    /**
     * The access rights the request needs, on the QP (rxe's {@code check_qp_attr_access}) as on the
     * region; for a FLUSH with no or an unknown placement type, a value no QP grants.
     */
    static int qpAccess(RxPacket p) {
        if (p.is(Opcode.ATOMIC_WRITE)) {
            return AccessFlags.REMOTE_WRITE;
        }
        int type = Feth.placementType(p.buf, p.ext(ExtHeader.FETH));
        if (type == 0 || (type & ~(PLACEMENT_GLOBAL | PLACEMENT_PERSISTENT)) != 0) {
            return -1;
        }
        return ((type & PLACEMENT_GLOBAL) != 0 ? AccessFlags.FLUSH_GLOBAL : 0)
                | ((type & PLACEMENT_PERSISTENT) != 0 ? AccessFlags.FLUSH_PERSISTENT : 0);
    }

    /** IBA oA19-28: an ATOMIC WRITE carries 8 bytes (no pad); a FLUSH none. */
    static boolean lengthValid(RxPacket p) {
        return p.payloadLength == (p.is(Opcode.ATOMIC_WRITE) ? ATOMIC_WRITE_LENGTH : 0);
    }

    /** The region checks of IBA C9-87 for the two requests, before anything is executed. */
    static ResponderState checkRkey(QueuePair qp, RxPacket p) {
        int off = p.ext(ExtHeader.RETH);
        long va = Reth.va(p.buf, off);
        long len = Reth.dmaLength(p.buf, off);
        MemoryRegion mr = qp.nic().mrByKey(Reth.rkey(p.buf, off));
        int rights = qpAccess(p);
        if (p.is(Opcode.ATOMIC_WRITE)) {
            if (len != ATOMIC_WRITE_LENGTH || (va & 7) != 0) {
                return ResponderState.ERR_INVALID_REQUEST;
            }
            return mr != null && mr.allowsRemote(qp.pd(), rights, va, len) ? ResponderState.EXECUTE
                    : ResponderState.ERR_ACCESS;
        }
        int level = Feth.selectivityLevel(p.buf, p.ext(ExtHeader.FETH));
        if (level != SELECT_RANGE && level != SELECT_REGION) {
            return ResponderState.ERR_INVALID_REQUEST;
        }
        boolean granted = mr != null && (level == SELECT_REGION ? mr.grants(qp.pd(), rights)
                : mr.allowsRemote(qp.pd(), rights, va, len));
        return granted ? ResponderState.EXECUTE : ResponderState.ERR_ACCESS;
    }

    /** Executes a checked request: an ATOMIC WRITE places its 8 bytes; a FLUSH has nothing left to do. */
    static void execute(QueuePair qp, RxPacket p) {
        if (p.is(Opcode.ATOMIC_WRITE)) {
            int off = p.ext(ExtHeader.RETH);
            MemoryRegion mr = qp.nic().mrByKey(Reth.rkey(p.buf, off));
            p.buf.getBytes(p.payloadOffset, mr.buffer(), mr.index(Reth.va(p.buf, off)), ATOMIC_WRITE_LENGTH);
        }
    }
}
