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

    /** Copies {@code len} bytes from {@code src} at {@code srcIndex} to message offset {@code off} of the SGL. */
    void scatter(Sge[] sgl, long off, ByteBuf src, int srcIndex, int len) {
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
            src.getBytes(srcIndex, mr.buffer(), mr.index(s.addr() + off), n);
            srcIndex += n;
            len -= n;
            off = 0;
        }
    }

    /** Writes a 64-bit little-endian value at message offset 0 of the SGL (atomic results). */
    void scatterLong(Sge[] sgl, long value) {
        Sge s = sgl[0];
        MemoryRegion mr = nic.mrByKey(s.lkey());
        putLongLE(mr.buffer(), mr.index(s.addr()), value);
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
