package io.rocelab.nic;

/**
 * What a NIC port sends to pause its link partner, by its {@link FlowControlMode}: PFC frames
 * ({@link PortPfc}) or 802.3x PAUSE frames ({@link PortPause}). {@link SoftNic#sendPfc} and the
 * storms go through it, so a port in PAUSE mode pauses its partner where one in PFC mode would.
 *
 * <p>Owner thread only.
 */
interface PortFlowControl {
    /**
     * Sends one pause frame: PFC for the priorities in {@code cev} with their {@code quanta}; a
     * PAUSE port sends one PAUSE with the longest of those times (0 if all are 0: resume).
     */
    void send(int cev, int[] quanta);

    /** Keeps the partner paused (priority {@code priority}, or the whole port) until {@link #stopStorm()}. */
    void startStorm(int priority);

    /** Stops the storm, if one runs. */
    void stopStorm();
}
