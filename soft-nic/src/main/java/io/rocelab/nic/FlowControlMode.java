package io.rocelab.nic;

/**
 * Which link flow control a NIC port runs, as {@code mlnx_qos --pfc} and {@code ethtool -A}
 * choose it on a ConnectX port: one or the other, never both (mlx5 refuses global pause while PFC
 * is enabled on a priority).
 *
 * <ul>
 * <li>{@link #PFC}: IEEE 802.1Qbb priority flow control (the default, and what every RoCE fabric
 *     runs): a received PFC frame stops the priorities it names; the port sends PFC frames.
 *     A received 802.3x PAUSE is counted ({@code rx_pause_ctrl_phy}) and not acted on, as
 *     {@code ethtool -A rx off}.</li>
 * <li>{@link #PAUSE}: IEEE 802.3x link-level PAUSE ({@code ethtool -A DEV rx on tx on}, Annex
 *     31B): a received PAUSE stops the whole port, every priority, for its time; where the port
 *     would send PFC (a storm, {@link SoftNic#sendPfc}) it sends PAUSE.</li>
 * </ul>
 */
public enum FlowControlMode {
    PFC,
    PAUSE
}
