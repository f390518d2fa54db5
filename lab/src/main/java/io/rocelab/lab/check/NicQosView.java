package io.rocelab.lab.check;

/**
 * What the fabric check needs of a NIC's DCB settings (IEEE 802.1Qaz; mlnx_qos's {@code --pfc},
 * {@code --trust}, and lldpad's DCBX willing bit): its own PFC priorities, which header it trusts to
 * tell a received frame's priority, and whether it takes its link partner's PFC configuration
 * (IEEE 802.1Qaz 38.4.1: a willing station accepts the configuration of a non-willing peer; switch
 * ports advertise theirs as not willing). Today's soft NIC acts on every priority a PFC frame names and
 * has no DCB settings of its own: {@link #DEFAULT}, willing, trusting DSCP, so its operational PFC
 * priorities are its switch port's.
 *
 * @param pfcMask bit p set: the NIC's own configuration has PFC on priority p
 * @param trust   the header the NIC classifies received frames by
 * @param willing whether it takes the link partner's PFC configuration (DCBX willing)
 */
public record NicQosView(int pfcMask, Trust trust, boolean willing) {
    /** mlnx_qos {@code --trust}: the header a NIC reads a received frame's priority from. */
    public enum Trust {
        /** {@code --trust dscp}: the IP header's DSCP. */
        DSCP,
        /** {@code --trust pcp}: the 802.1Q tag's PCP. */
        PCP
    }

    /** The soft NIC as it is: DCBX willing, trusting DSCP, nothing of its own. */
    public static final NicQosView DEFAULT = new NicQosView(0, Trust.DSCP, true);

    /**
     * @param switchPortMask the PFC priorities of the switch port the NIC is cabled to
     * @return the priorities the NIC runs PFC on: the port's when it is willing, else its own
     */
    public int operationalMask(int switchPortMask) {
        return willing ? switchPortMask : pfcMask;
    }
}
