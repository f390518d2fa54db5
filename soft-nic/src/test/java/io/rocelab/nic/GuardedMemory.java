package io.rocelab.nic;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

/**
 * A registered region in the middle of a larger array filled with random bytes: the canaries around
 * it show any write outside the region, and a record of the bytes anyone may write (a peer with the
 * rights the region grants, the local SGEs of posted work requests) shows any write inside it that
 * nothing allowed.
 */
final class GuardedMemory {
    static final int GUARD = 256;

    final String name;
    final byte[] array;
    final MemoryRegion mr;
    private final byte[] original;
    /** Array indices that may change. */
    private final BitSet writable = new BitSet();

    GuardedMemory(String name, ProtectionDomain pd, int length, long va, int access, long seed) {
        this.name = name;
        this.array = new byte[GUARD + length + GUARD];
        new Random(seed).nextBytes(array);
        this.original = array.clone();
        this.mr = pd.registerMr(array, GUARD, length, va, access);
    }

    /** The whole region may change (a peer may write it). */
    void allowRegion() {
        writable.set(GUARD, GUARD + mr.length());
    }

    /** [va, va + length) may change, clipped to the region. */
    void allow(long va, long length) {
        long from = Math.max(va, mr.addr());
        long to = Math.min(va + length, mr.addr() + mr.length());
        if (to > from) {
            writable.set(GUARD + (int) (from - mr.addr()), GUARD + (int) (to - mr.addr()));
        }
    }

    /** An SGE's bytes may change (a posted WR's), if it is in this region. */
    void allow(Sge s) {
        if (s.lkey() == mr.lkey()) {
            allow(s.addr(), s.length());
        }
    }

    Sge sge(int off, int length) {
        return Sge.of(mr, off, length);
    }

    long va(int off) {
        return mr.addr() + off;
    }

    /** Bytes that changed where nothing may write (at most 8), canary or region. Empty if none. */
    List<String> violations() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < array.length && out.size() < 8; i++) {
            if (array[i] != original[i] && !writable.get(i)) {
                boolean canary = i < GUARD || i >= GUARD + mr.length();
                out.add(name + (canary ? " canary" : " region") + " byte " + (i - GUARD) + " changed");
            }
        }
        return out;
    }
}
