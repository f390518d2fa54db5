package io.rocelab.codec.lldp;

/**
 * The PFC Configuration TLV (IEEE 802.1Qaz-2011 D.2.10, subtype 11): 6 bytes of information after
 * the OUI and subtype: willing, MACsec bypass capability, PFC capability (how many priorities may
 * have PFC at once) and the PFC enable bit vector (bit p: PFC on priority p).
 *
 * @param willing    the sender accepts its peer's configuration
 * @param mbc        MACsec bypass capability
 * @param capability how many traffic classes may have PFC at once, a 4-bit field (0..15), sent as it is
 * @param enableMask bit p set: PFC on priority p (0..0xFF)
 */
public record DcbxPfc(boolean willing, boolean mbc, int capability, int enableMask) {
    public DcbxPfc {
        if (capability < 0 || capability > 15) {
            throw new IllegalArgumentException("PFC capability must be 0..15: " + capability);
        }
        if ((enableMask & ~0xFF) != 0) {
            throw new IllegalArgumentException("PFC enable must be 8 bits: " + enableMask);
        }
    }

    public boolean enabled(int priority) {
        return (enableMask & (1 << priority)) != 0;
    }
}
