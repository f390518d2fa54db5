package io.rocelab.sw.mmu;

/** How the MMU asks for pause frames: it decides, the {@link PfcGenerator} builds and sends. */
public interface PfcSignal {
    /** PG {@code pg} of {@code port} crossed xoff (or found the pool full). */
    void xoff(int port, int pg);

    /** PG {@code pg} of {@code port} fell to xon. */
    void xon(int port, int pg);
}
