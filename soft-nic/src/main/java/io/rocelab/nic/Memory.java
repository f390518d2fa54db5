package io.rocelab.nic;

import io.netty.buffer.ByteBuf;

/**
 * Moves bytes between packets and local memory described by scatter/gather lists, after checking
 * every SGE's lkey, PD, rights and bounds (IBA 10.7.2.1: a bad SGE is a local protection error).
 */
final class Memory {
    private final SoftNic nic;

    Memory(SoftNic nic) {
        this.nic = nic;
    }

    /** Whether every SGE names a valid region of {@code pd} covering it, with local write if needed. */
    boolean checkSgl(ProtectionDomain pd, Sge[] sgl, boolean needLocalWrite) {
        for (Sge s : sgl) {
            MemoryRegion mr = nic.mrByKey(s.lkey());
            if (mr == null || !mr.isValid() || mr.pd() != pd || !mr.covers(s.addr(), s.length())
                    || (needLocalWrite && (mr.access() & AccessFlags.LOCAL_WRITE) == 0)) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code len} bytes at message offset {@code off} of the SGL into {@code dst} at {@code dstIndex}. */
    void gather(Sge[] sgl, long off, ByteBuf dst, int dstIndex, int len) {
        for (Sge s : sgl) {
            if (len == 0) {
                return;
            }
            if (off >= s.length()) {
                off -= s.length();
                continue;
            }
            int n = (int) Math.min(len, s.length() - off);
            MemoryRegion mr = nic.mrByKey(s.lkey());
            dst.setBytes(dstIndex, mr.buffer(), mr.index(s.addr() + off), n);
            dstIndex += n;
            len -= n;
            off = 0;
        }
    }

    /**
     * Copies {@code len} bytes from {@code src} at {@code srcIndex} to message offset {@code off} of
     * the SGL, into memory the NIC may write for {@code pd}. False, with what fits copied, when an
     * SGE's region is gone, invalid, of another PD, without local write or smaller than the SGE: a
     * receive WQE is only checked when a message lands in it (rxe's {@code copy_data}), and a
     * region may be deregistered while a READ is outstanding.
     */
    boolean scatter(ProtectionDomain pd, Sge[] sgl, long off, ByteBuf src, int srcIndex, int len) {
        for (Sge s : sgl) {
            if (len == 0) {
                return true;
            }
            if (off >= s.length()) {
                off -= s.length();
                continue;
            }
            MemoryRegion mr = writable(pd, s);
            if (mr == null) {
                return false;
            }
            int n = (int) Math.min(len, s.length() - off);
            src.getBytes(srcIndex, mr.buffer(), mr.index(s.addr() + off), n);
            srcIndex += n;
            len -= n;
            off = 0;
        }
        return len == 0;
    }

    /** Writes a 64-bit little-endian value at message offset 0 of the SGL (atomic results); false as scatter. */
    boolean scatterLong(ProtectionDomain pd, Sge[] sgl, long value) {
        Sge s = sgl[0];
        MemoryRegion mr = s.length() < 8 ? null : writable(pd, s);
        if (mr == null) {
            return false;
        }
        putLongLE(mr.buffer(), mr.index(s.addr()), value);
        return true;
    }

    /** The region behind {@code s} if the NIC may write all of it for {@code pd} (IBA 10.7.2.1), else null. */
    private MemoryRegion writable(ProtectionDomain pd, Sge s) {
        MemoryRegion mr = nic.mrByKey(s.lkey());
        if (mr == null || !mr.isValid() || mr.pd() != pd || !mr.covers(s.addr(), s.length())
                || (mr.access() & AccessFlags.LOCAL_WRITE) == 0) {
            return null;
        }
        return mr;
    }

    static long getLongLE(byte[] b, int i) {
        long v = 0;
        for (int k = 7; k >= 0; k--) {
            v = (v << 8) | (b[i + k] & 0xFF);
        }
        return v;
    }

    static void putLongLE(byte[] b, int i, long v) {
        for (int k = 0; k < 8; k++) {
            b[i + k] = (byte) (v >>> (8 * k));
        }
    }
}
