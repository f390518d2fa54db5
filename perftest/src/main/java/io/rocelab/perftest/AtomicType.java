package io.rocelab.perftest;

/** The atomic operation of {@code ib_atomic_bw/lat -A}; the name is printed in the test title. */
public enum AtomicType {
    CMP_AND_SWAP,
    FETCH_AND_ADD
}
