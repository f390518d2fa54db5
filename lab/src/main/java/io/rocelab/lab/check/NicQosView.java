package io.rocelab.lab.check;

import io.rocelab.nic.dcb.DcbSettings.Trust;

/**
 * What the fabric check needs of a NIC's DCB settings (IEEE 802.1Qaz; mlnx_qos's {@code --pfc},
 * {@code --trust}, and lldpad's DCBX willing bit): its own PFC priorities, which header it trusts to
 * tell a received frame's priority, and whether it takes its link partner's PFC configuration
 * (IEEE 802.1Qaz 38.4.1: a willing station accepts the configuration of a non-willing peer; switch
 * ports advertise theirs as not willing). A lab's NICs are read from their DCB settings
 * ({@code LabFabric.nicQos}); {@link #DEFAULT} is a NIC that follows its switch port.
 *
 * @param pfcMask bit p set: the NIC's own configuration has PFC on priority p
 * @param trust   the header the NIC classifies frames by (mlnx_qos {@code --trust}, the NIC's own setting)
 * @param willing whether it takes the link partner's PFC configuration (DCBX willing)
 */
public record NicQosView(int pfcMask, Trust trust, boolean willing) {
    /** A NIC that follows its switch port: DCBX willing, trusting DSCP, nothing of its own. */
    public static final NicQosView DEFAULT = new NicQosView(0, Trust.DSCP, true);

    /**
     * @param switchPortMask the PFC priorities of the switch port the NIC is cabled to
     * @return the priorities the NIC runs PFC on: the port's when it is willing, else its own
     */
    public int operationalMask(int switchPortMask) {
        return willing ? switchPortMask : pfcMask;
    }
}
