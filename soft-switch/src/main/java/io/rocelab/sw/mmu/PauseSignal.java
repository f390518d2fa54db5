package io.rocelab.sw.mmu;

/**
 * How the MMU asks for 802.3x PAUSE frames for a whole ingress port (IEEE 802.3 Annex 31B): it
 * decides ({@link PortPauseState}), the {@link PauseGenerator} builds and sends.
 */
public interface PauseSignal {
    /** Does nothing: a switch without 802.3x ports. */
    PauseSignal NONE = new PauseSignal() {
        @Override
        public void xoff(int port) {
        }

        @Override
        public void xon(int port) {
        }
    };

    /** The port's ingress, all its PGs together, reached its pause threshold. */
    void xoff(int port);

    /** The port's ingress fell to its resume threshold. */
    void xon(int port);
}
